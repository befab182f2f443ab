#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole regular file of bounded size without following a symbolic link and without
/// opening a FIFO, socket or device (opening a FIFO blocks; opening a device can have effects).
enum BoundedFileReader {
    struct Failure: Error {
        let reason: String
    }

    static func read(_ path: String, maxBytes: Int) throws(Failure) -> [UInt8] {
        // lstat first so special files are never opened; fstat after opening closes the race.
        var status = stat()
        guard lstat(path, &status) == 0 else { throw Failure(reason: errnoText()) }
        try requireRegularFile(status)

        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure(reason: errno == ELOOP ? "it is a symbolic link, which is never followed" : errnoText())
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw Failure(reason: errnoText()) }
        try requireRegularFile(status)
        guard status.st_size <= maxBytes else {
            throw Failure(reason: "it is \(status.st_size) bytes, more than the \(maxBytes)-byte limit")
        }

        // Read one byte past the limit to notice a file that grew after fstat.
        let capacity = Int(status.st_size) + 1
        var bytes = [UInt8](repeating: 0, count: min(capacity, maxBytes < Int.max ? maxBytes + 1 : maxBytes))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return posixRead(descriptor, base + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: errnoText())
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= maxBytes else {
            throw Failure(reason: "it grew past the \(maxBytes)-byte limit while being read")
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    private static func requireRegularFile(_ status: stat) throws(Failure) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: throw Failure(reason: "it is a symbolic link, which is never followed")
        case S_IFDIR: throw Failure(reason: "it is a folder, not a file")
        case S_IFIFO: throw Failure(reason: "it is a FIFO (named pipe), not a regular file")
        case S_IFSOCK: throw Failure(reason: "it is a socket, not a regular file")
        default: throw Failure(reason: "it is a device, not a regular file")
        }
    }

    private static func errnoText() -> String {
        let code = errno
        return String(cString: strerror(code))
    }
}

// `read` inside the enum would resolve to the enum's own method.
@inline(__always)
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}
