/// Every limit a device backup is read within, in one place. Each follows from the format Finder, iTunes and
/// `idevicebackup2` write, with room to spare, so a real backup never meets one; what does is refused before it
/// costs more than its own size (`BackupError.unexpected`, naming the record and the limit).
package enum BackupLimits {
    /// `relativePath` bytes. A file's absolute path on the device is at most iOS's `PATH_MAX` (1,024 bytes), and
    /// the path below its container is shorter still; so a path has at most 512 components.
    package static let maxRelativePathBytes = 1024
    /// `domain` bytes: `AppDomainGroup-` and a group id, or a system domain's name (ids are at most 255 bytes).
    package static let maxDomainBytes = 512
    /// `fileID` bytes: 40 hex digits (a SHA-1); longer text names no content file.
    package static let maxFileIDBytes = 64
    /// The `file` column: an `MBFile` archive is about 500 bytes (its numbers, path, link target and extended
    /// attributes). Larger blobs are refused by `length(file)` before SQLite copies them.
    package static let maxMBFileBytes = 1 << 20
    /// Any one value SQLite may hand over (`SQLITE_LIMIT_LENGTH`): the backstop behind the limits above.
    static let maxValueBytes = maxMBFileBytes + 4096
    /// `Manifest.plist`: it lists every app with its bundle details (older iOS versions add icons), a few MB.
    package static let maxManifestPlistBytes = 64 << 20
    /// `Status.plist`: a handful of keys.
    package static let maxStatusPlistBytes = 1 << 20

    /// Rows `Files` can hold: an SQLite table row takes at least 10 bytes of its page (cell pointer, sizes,
    /// rowid, record header), so a file of `databaseBytes` holds at most a tenth as many rows.
    package static func maxRows(databaseBytes: Int64) -> Int64 { max(1, databaseBytes / 10) }

    /// SQLite virtual-machine steps one query of `Manifest.db` may take: a scan takes a few dozen per row, and
    /// rows are bounded by the size; a floor covers the schema check and small files. This replaces a wall
    /// clock, which a slow disk shortens and a fast one makes needlessly long.
    package static func maxSteps(databaseBytes: Int64) -> Int64 { 10_000_000 + 16 * max(0, databaseBytes) }
}
