/// Every limit a device backup is read within. Each follows from the format with room to spare, so a real backup
/// never meets one; what does is refused before it costs more than its own size.
package enum BackupLimits {
    /// `relativePath` bytes: a path on the device is at most iOS's `PATH_MAX`.
    package static let maxRelativePathBytes = 1024
    /// `domain` bytes: `AppDomainGroup-` and a group id, or a system domain's name (ids are at most 255 bytes).
    package static let maxDomainBytes = 512
    /// `fileID` bytes: 40 hex digits (a SHA-1); longer text names no content file.
    package static let maxFileIDBytes = 64
    /// The `file` column: an `MBFile` archive is about 500 bytes.
    package static let maxMBFileBytes = 1 << 20
    /// Any one value SQLite may hand over (`SQLITE_LIMIT_LENGTH`): the backstop behind the limits above.
    static let maxValueBytes = maxMBFileBytes + 4096
    /// `Manifest.plist`: it lists every app with its bundle details (older iOS versions add icons), a few MB.
    package static let maxManifestPlistBytes = 64 << 20
    /// `Status.plist`: a handful of keys.
    package static let maxStatusPlistBytes = 1 << 20

    /// An SQLite table row takes at least 10 bytes of its page.
    package static func maxRows(databaseBytes: Int64) -> Int64 { max(1, databaseBytes / 10) }

    /// SQLite steps one query may take: a few dozen per row, and a floor. Not a wall clock, which a slow disk shortens.
    package static func maxSteps(databaseBytes: Int64) -> Int64 { 10_000_000 + 16 * max(0, databaseBytes) }
}
