#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes what was written to a file (or a folder's entries) durable before the caller goes on, e.g. renames a
/// report into place. Linux's `fsync` reaches the disk; macOS's `fsync` only hands the data to the drive, whose
/// cache can lose it at a power cut, and `fcntl(F_FULLFSYNC)` is what flushes that cache.
package enum DurableSync {
    /// 0 on success, -1 with `errno` set otherwise. On macOS a file system that refuses `F_FULLFSYNC` (some
    /// network and FUSE file systems) gets a plain `fsync`.
    package static func sync(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(fd)
    }
}
