#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StocktakeModel

/// Thin, portable wrappers over the POSIX calls the walk makes (POSIX `openat`/`readdir`/`fstatat` run on
/// Linux and macOS alike; the measured gain of getdents64+statx over them was nil, see README).
enum POSIX {
    static var errno: Int32 {
        #if canImport(Glibc)
        Glibc.errno
        #else
        Darwin.errno
        #endif
    }

    static func message(_ code: Int32) -> String { String(cString: strerror(code)) }

    static func setErrno(_ code: Int32) {
        #if canImport(Glibc)
        Glibc.errno = code
        #else
        Darwin.errno = code
        #endif
    }

    /// Linux's O_NOATIME (reading must not touch the audited tree's access times); 0 elsewhere.
    static var noAccessTimeFlag: Int32 {
        #if os(Linux)
        0o1_000_000
        #else
        0
        #endif
    }

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

    static func modificationTime(_ info: stat) -> Int64 {
        #if canImport(Glibc)
        Int64(info.st_mtim.tv_sec)
        #else
        Int64(info.st_mtimespec.tv_sec)
        #endif
    }

    /// Opens a regular file for reading without following a symlink or blocking on a FIFO, and checks it
    /// is still the regular file the walk saw.
    static func openRegularFile(directory: Int32, name: UnsafePointer<CChar>, extraFlags: Int32 = 0) -> Int32? {
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | extraFlags)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Reads up to `count` bytes from the start of a file into `buffer`; returns how many were read.
    static func readPrefix(fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var total = 0
        while total < buffer.count {
            let n = pread(fd, buffer.baseAddress! + total, buffer.count - total, off_t(total))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            total += n
        }
        return total
    }
}
