#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension stat {
    /// Seconds since 1970 of the last modification (Linux and macOS name the field differently).
    package var modificationSeconds: Int64 {
        #if canImport(Glibc)
            Int64(st_mtim.tv_sec)
        #else
            Int64(st_mtimespec.tv_sec)
        #endif
    }

    /// Nanoseconds since 1970 of the last status change: any change sets it, and no copy tool can set it back.
    package var changeNanoseconds: Int64 {
        #if canImport(Glibc)
            Int64(st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(st_ctim.tv_nsec)
        #else
            Int64(st_ctimespec.tv_sec) &* 1_000_000_000 &+ Int64(st_ctimespec.tv_nsec)
        #endif
    }
}
