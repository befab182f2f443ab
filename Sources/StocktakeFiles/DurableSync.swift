#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes what was written durable before the caller goes on (renames a report into place). macOS's `fsync` only
/// hands the data to the drive, whose cache a power cut can lose: `F_FULLFSYNC` flushes that cache.
package enum DurableSync {
    /// 0, or -1 with `errno` set. A file system refusing `F_FULLFSYNC` (network, FUSE) gets a plain `fsync`.
    package static func sync(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(fd)
    }
}
