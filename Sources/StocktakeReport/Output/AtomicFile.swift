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
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let base = String(path.split(separator: "/").last ?? "")
        var template = Array(((folder.isEmpty ? "." : folder) + "/." + base + ".tmp-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var closed = false
        do {
            try produce { bytes in try writeAll(fd: fd, bytes: bytes, path: path) }
            guard fsync(fd) == 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno))) }
            fchmod(fd, 0o644)
            closed = true
            guard close(fd) == 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno))) }
            guard rename(temporary, path) == 0 else { throw OutputError(path: path, reason: String(cString: strerror(errno))) }
        } catch {
            if !closed { close(fd) }
            unlink(temporary)
            throw error
        }
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
