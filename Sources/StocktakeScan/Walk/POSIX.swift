import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open directory stream: glibc's `DIR` is opaque (an `OpaquePointer`), Darwin's a struct (a typed pointer).
#if canImport(Darwin)
    typealias DirectoryStream = UnsafeMutablePointer<DIR>
#else
    typealias DirectoryStream = OpaquePointer
#endif

/// What the walk reads from a `stat` (POSIX calls on both systems: getdents64+statx measured no gain, docs/design.md).
enum POSIX {
    static func entryType(mode: mode_t) -> EntryType {
        switch mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .directory
        case S_IFLNK: .symlink
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        default: .unknown
        }
    }

    /// Darwin's `st_flags` (`UF_COMPRESSED`, `UF_HIDDEN`…); 0 on Linux, whose `stat` has no flags field.
    @inline(__always)
    static func fileFlags(_ info: stat) -> UInt32 {
        #if canImport(Darwin)
            info.st_flags
        #else
            0
        #endif
    }
}
