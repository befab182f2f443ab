#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import StocktakeFiles
import StocktakeModel

extension ArchiveInput {
    /// What the content checks find in the archive's files, read from what the first pass kept; the few selected
    /// files it did not keep (its bounds reached, or the archive read without capture) are copied by a second pass
    /// into a private temporary folder (one file per entry, named by its index, a text file only up to its prefix),
    /// read there as a folder's would be, and the copies removed. The archive is never written; an entry the pass
    /// cannot read is passed over, as an unreadable file is.
    public func sensitiveData() throws(ScanError) -> [SensitiveItem] {
        let inspector = ContentInspector(root: "", inventory: inventory)
        let budget = ContentInspector.Budget()
        let selected = inspector.selection().filter { $0.bytes <= budget.copiedStoreBytes && dataOrdinals[Int($0.entry)] >= 0 }
        var sources: [Int32: ContentInspector.Source] = [:]
        var missing: [ContentInspector.Selected] = []
        for chosen in selected {
            if let source = kept[dataOrdinals[Int(chosen.entry)]] { sources[chosen.entry] = source } else { missing.append(chosen) }
        }
        var copies: ScratchFolder?
        if !missing.isEmpty {
            let folder = try ScratchFolder("stocktake-content")
            copies = folder
            for (entry, file) in try copy(missing, into: folder) { sources[entry] = .file(file) }
        }
        let items = ContentInspector(root: "", inventory: inventory, locate: { sources[$0] }).inspect(selected.filter { sources[$0.entry] != nil })
        withExtendedLifetime(copies) {}
        return items
    }

    /// Streams each selected entry's first `bytes` into `folder/<index>`; returns where each landed.
    private func copy(_ selected: [ContentInspector.Selected], into folder: ScratchFolder) throws(ScanError) -> [Int32: String] {
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
                if let file = folder.store("\(member.entry)", bytes) { copied[member.entry] = file }
            }
        }
        return copied
    }
}
