#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure writing an output file. The message names the file and the system's reason.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Writes a file atomically: a temporary file in the same folder, flushed to disk, then renamed over the
/// target. Readers see the old file or the whole new one, never half of it; on failure the temporary goes.
public enum AtomicFile {
    public static func write(to path: String, _ produce: (_ write: @escaping ([UInt8]) throws -> Void) throws -> Void) throws {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array(((folder.hasSuffix("/") ? folder : folder + "/") + "." + base + ".tmp-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var closed = false
        do {
            try produce { bytes in try writeAll(fd: fd, bytes: bytes, path: path) }
            guard fsync(fd) == 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno))) }
            // mkstemp makes the file 0600; give it what any new file gets under the user's umask.
            fchmod(fd, 0o666 & ~currentUmask)
            closed = true
            guard close(fd) == 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno))) }
            guard rename(temporary, path) == 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno))) }
            syncFolder(folder)
        } catch {
            if !closed { close(fd) }
            unlink(temporary)
            throw error
        }
    }

    /// The process's umask (reading it means setting it; put straight back).
    private static var currentUmask: mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    /// Makes the rename durable: the folder's entry reaches the disk too.
    private static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        try write(to: path) { write in try write(bytes) }
    }

    private static func writeAll(fd: Int32, bytes: [UInt8], path: String) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw OutputError(path: path, reason: String(cString: strerror(errno)))
                }
                offset += n
            }
        }
    }
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
