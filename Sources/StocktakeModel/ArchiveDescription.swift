/// The archive an audited container was read from, in place (nothing extracted).
public struct ArchiveDescription: Sendable, Equatable {
    /// The archive's path as the user gave it.
    public let path: String
    /// `zip` or `tar` (ustar, pax or GNU).
    public let format: String
    /// `none`, `gzip`, `bzip2` or `xz`.
    public let compression: String
    /// The folder inside the archive recognised as the container (the package, the data container or the bare
    /// tree), `/`-separated; empty for the archive's root.
    public let folder: String

    public init(path: String, format: String, compression: String, folder: String) {
        (self.path, self.format, self.compression, self.folder) = (path, format, compression, folder)
    }
}
