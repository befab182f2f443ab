/// How much data an archive may declare against its own size: keeps a decompression bomb (a small `.tar.bz2`
/// declaring a terabyte) from holding the audit and the nightly lock for an hour. Deflate cannot expand more than
/// 1,032 times, so real zip and gzip exports pass; bzip2 and xz can, and such an archive is refused with the way out.
public enum ArchiveLimits {
    public static let maxExpansion: Int64 = 2_000
    /// What any archive may declare, however small: 1 GiB decompresses in seconds.
    public static let minDeclaredBytes: Int64 = 1 << 30

    public static func maxDeclaredBytes(archiveBytes: Int64) -> Int64 {
        max(
            minDeclaredBytes,
            archiveBytes.multipliedReportingOverflow(by: maxExpansion).overflow ? .max : archiveBytes * maxExpansion)
    }
}
