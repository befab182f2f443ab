/// How much data an archive may declare, against its own size: the bound that keeps a decompression bomb (a
/// small `.tar.bz2` of concatenated streams declaring a terabyte) from holding the audit, and the nightly lock,
/// for an hour while its data is skipped. Deflate (zip, gzip) cannot expand more than 1,032 times, so real
/// exports in those formats always pass; bzip2 and xz can, on long runs of zeros, and such an archive is refused
/// with the way out (extract it, audit the folder).
public enum ArchiveLimits {
    /// Declared data per byte of archive.
    public static let maxExpansion: Int64 = 2_000
    /// What any archive may declare, however small: 1 GiB decompresses in seconds.
    public static let minDeclaredBytes: Int64 = 1 << 30

    /// The most entry data an archive of `archiveBytes` may declare.
    public static func maxDeclaredBytes(archiveBytes: Int64) -> Int64 {
        max(
            minDeclaredBytes,
            archiveBytes.multipliedReportingOverflow(by: maxExpansion).overflow ? .max : archiveBytes * maxExpansion)
    }
}
