#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StocktakeFiles
import StocktakeModel

extension ArchiveInput {
    /// Largest store copied out of an archive for the content checks; a larger database is not read.
    public static let maxCopiedStoreBytes: Int64 = 64 << 20

    /// What the content checks find in the archive's files: the few files they read are copied, by a second pass,
    /// into a private temporary folder (one file per entry, named by its index, text files only up to their
    /// prefix), read there as a folder's would be, and the copies removed. The archive is never written; an entry
    /// the pass cannot read is passed over, as an unreadable file is.
    public func sensitiveData() throws(ScanError) -> [SensitiveItem] {
        let inspector = ContentInspector(root: "", inventory: inventory)
        let selected = inspector.selection().filter { $0.bytes <= Self.maxCopiedStoreBytes && dataOrdinals[Int($0.entry)] >= 0 }
        guard !selected.isEmpty else { return [] }
        var template = Array((NSTemporaryDirectory() + "/stocktake-content-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .unreadableRoot(path: path, reason: "cannot make a temporary folder for the content checks: \(SystemError.currentText)")
        }
        let scratch = String(cString: made)
        var copied: [Int32: String] = [:]
        defer {
            for file in copied.values { unlink(file) }
            rmdir(scratch)
        }
        copied = try copy(selected, into: scratch)
        return ContentInspector(root: scratch, inventory: inventory, locate: { copied[$0] }).inspect(selected.filter { copied[$0.entry] != nil })
    }

    /// Streams each selected entry's first `bytes` into `folder/<index>`; returns where each landed.
    private func copy(_ selected: [ContentInspector.Selected], into folder: String) throws(ScanError) -> [Int32: String] {
        var wanted: [Int32: [ContentInspector.Selected]] = [:]
        for chosen in selected { wanted[dataOrdinals[Int(chosen.entry)], default: []].append(chosen) }
        let stream = try ArchiveStream(path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        var copied: [Int32: String] = [:]
        var ordinal: Int32 = 0
        // The pass ends after the last wanted entry: what follows is never decompressed.
        let last = wanted.keys.max() ?? -1
        while ordinal <= last {
            let header: ArchiveHeader?
            do {
                header = try stream.next()
            } catch {
                throw .unreadableRoot(path: path, reason: "the archive is damaged or truncated (on the second read, for the content checks): \(error.message)")
            }
            guard header != nil else { break }
            defer { ordinal += 1 }
            guard let members = wanted[ordinal], let first = members.first else { continue }
            var bytes: [UInt8] = []
            do throws(EntryReadFailure) {
                // A text file's prefix is what is read; the stream stops there and the next header skips the rest.
                if first.bytes < inventory.entries[Int(first.entry)].apparentBytes {
                    let prefix = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(first.bytes), alignment: 8)
                    defer { prefix.deallocate() }
                    let count = try stream.read(into: prefix)
                    bytes = Array(prefix[0..<count])
                } else {
                    _ = try stream.stream(through: buffer, limit: first.bytes) { bytes.append(contentsOf: $0) }
                }
            } catch {
                guard !error.fatal else { throw .unreadableRoot(path: path, reason: "the archive is damaged or truncated: \(error.message)") }
                continue
            }
            for member in members {
                let destination = folder + "/\(member.entry)"
                if Self.writeNew(destination, bytes) { copied[member.entry] = destination }
            }
        }
        return copied
    }

    /// A new private file holding `bytes`: a scratch copy, so no rename and no sync (Foundation's writes do both).
    private static func writeNew(_ path: String, _ bytes: [UInt8]) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { unlink(path); return false }
            written += count
        }
        return true
    }
}
