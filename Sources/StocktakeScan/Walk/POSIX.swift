import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open directory stream: glibc's `DIR` is an opaque type (imported as `OpaquePointer`), Darwin's a struct
/// the SDK defines (imported as a typed pointer).
#if canImport(Darwin)
    typealias DirectoryStream = UnsafeMutablePointer<DIR>
#else
    typealias DirectoryStream = OpaquePointer
#endif

/// What the walk reads from a `stat` (POSIX `openat`/`readdir`/`fstatat` run on Linux and macOS alike; the
/// measured gain of getdents64+statx over them was nil, see docs/design.md). Opening files: `RegularFile`.
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

    static func modificationTime(_ info: stat) -> Int64 { info.modificationSeconds }

    /// `st_flags` (Darwin's `__uint32_t`, `bsd/sys/stat.h`: `UF_COMPRESSED`, `UF_HIDDEN`…); 0 on Linux, whose
    /// `stat` has no flags field.
    @inline(__always)
    static func fileFlags(_ info: stat) -> UInt32 {
        #if canImport(Darwin)
            info.st_flags
        #else
            0
        #endif
    }
}
