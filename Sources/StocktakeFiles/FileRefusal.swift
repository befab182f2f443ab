#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file was not opened or read: a value whose `description` completes "cannot read FILE: …".
package enum FileRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    case system(Int32)
    case symbolicLink
    case directory
    case fifo
    case socket
    case device
    /// Larger than the caller's limit when opened.
    case tooLarge(bytes: Int64, limit: Int64)
    /// Grew past the limit while being read.
    case grew(limit: Int64)

    /// Nil for a regular file.
    package init?(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFLNK: self = .symbolicLink
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        default: self = .device
        }
    }

    package var code: Int32? {
        if case .system(let code) = self { return code }
        return nil
    }

    package var description: String {
        switch self {
        case .system(let code): SystemError.text(code)
        case .symbolicLink: "it is a symbolic link, which is never followed"
        case .directory: "it is a folder, not a file"
        case .fifo: "it is a FIFO (named pipe), not a regular file"
        case .socket: "it is a socket, not a regular file"
        case .device: "it is a device, not a regular file"
        case .tooLarge(let bytes, let limit): "it is \(bytes) bytes, more than the \(limit)-byte limit"
        case .grew(let limit): "it grew past the \(limit)-byte limit while being read"
        }
    }
}
