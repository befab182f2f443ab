#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension stat {
    /// Seconds since 1970 of the last modification (Linux and macOS name the field differently).
    public var modificationSeconds: Int64 {
        #if canImport(Glibc)
        Int64(st_mtim.tv_sec)
        #else
        Int64(st_mtimespec.tv_sec)
        #endif
    }
}
