#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StocktakeFiles
import StocktakeModel

/// What an archive's first pass keeps for the content checks, so that they need no second pass over the archive
/// (for a compressed tar, a second decompression of everything): each entry whose kind the checks read, as many
/// of its bytes as they would read (`ContentInspector.Budget.bytesRead`), in memory; SQLite stores, which SQLite
/// reads as files, in a private temporary folder. Bounded at four times the checks' own budget: beyond it nothing
/// more is kept, and the checks copy what they still need by a second pass.
struct ContentCapture {
    let budget = ContentInspector.Budget()
    let scratch: ScratchFolder
    private(set) var kept: [Int32: ContentInspector.Source] = [:]
    private var keptBytes: Int64 = 0
    private var storeBytes: Int64 = 0
    static let maxStoreBytes: Int64 = 256 << 20

    init() throws(ScanError) {
        scratch = try ScratchFolder("stocktake-capture")
    }

    /// How many bytes of the entry to keep, nil when none: its kind is not read, or the bounds are reached.
    func wanted(kind: ContentKind, size: Int64) -> Int64? {
        guard kept.count < budget.files * 4, let bytes = budget.bytesRead(kind: kind, size: size), bytes > 0 else { return nil }
        if kind == .sqlite { return storeBytes + bytes <= Self.maxStoreBytes ? bytes : nil }
        return keptBytes + bytes <= budget.totalBytes * 4 ? bytes : nil
    }

    /// Keeps an entry's bytes: `prefix` already read, the rest (up to `bytes` in all) read from the stream now.
    mutating func keep(
        ordinal: Int32, kind: ContentKind, bytes: Int64, prefix: UnsafeRawBufferPointer, stream: ArchiveStream
    ) throws(EntryReadFailure) {
        var data = Array(prefix.prefix(Int(bytes)))
        if Int64(data.count) < bytes {
            let rest = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(bytes) - data.count, alignment: 8)
            defer { rest.deallocate() }
            let count = try stream.read(into: rest)
            data += rest[0..<count]
        }
        if kind == .sqlite {
            guard let file = scratch.store("\(ordinal)", data) else { return }
            storeBytes += Int64(data.count)
            kept[ordinal] = .file(file)
        } else {
            keptBytes += Int64(data.count)
            kept[ordinal] = .bytes(data)
        }
    }
}

/// A private temporary folder (mode 0700) whose files go with it: removed when the last holder lets it go.
final class ScratchFolder: Sendable {
    let path: String

    init(_ prefix: String) throws(ScanError) {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .unreadableRoot(path: NSTemporaryDirectory(), reason: "cannot make a temporary folder for the content checks: \(SystemError.currentText)")
        }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A new private file holding `bytes`; a scratch copy, so no rename and no sync. Nil when it cannot be written.
    func store(_ name: String, _ bytes: [UInt8]) -> String? {
        let file = path + "/" + name
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                unlink(file)
                return nil
            }
            written += count
        }
        return file
    }
}
