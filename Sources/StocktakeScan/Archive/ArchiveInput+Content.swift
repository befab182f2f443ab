import StocktakeContent
import StocktakeFiles
import StocktakeModel

extension ArchiveInput {
    /// What the content checks find in the archive's files, read from what the first pass kept; the few selected
    /// files it did not keep (its bounds reached, or the archive read without capture) are copied by a second pass
    /// into a private temporary folder (one file per entry, named by its index, a text file only up to its prefix),
    /// read there as a folder's would be, and the copies removed. The archive is never written; an entry the pass
    /// cannot read is passed over, as an unreadable file is.
    public func contentPass(threads: Int = 4) throws(ScanError) -> ContentInspector.Outcome {
        var (planned, unread, passedOver) = ContentInspector(root: "", inventory: inventory).plan()
        let limit = ContentInspector.Budget().copiedStoreBytes
        var selected: [ContentInspector.Selected] = []
        var sources: [Int32: ContentInspector.Source] = [:]
        var missing: [ContentInspector.Selected] = []
        func leave(_ chosen: ContentInspector.Selected, _ reason: ContentCoverage.Reason, _ why: String) {
            unread.append(.init(entry: chosen.entry, reason: reason, bytes: chosen.bytes, detail: "not read: " + why))
        }
        for chosen in planned {
            let ordinal = dataOrdinals[Int(chosen.entry)]
            if chosen.bytes > limit {
                leave(chosen, .overSizeLimit, "over the \(limit >> 20) MiB copied out of an archive")
            } else if ordinal < 0 {
                leave(chosen, .unreadable, "the archive holds no data for it")
            } else {
                selected.append(chosen)
                if let source = kept[ordinal] { sources[chosen.entry] = source } else { missing.append(chosen) }
            }
        }
        var copies: ScratchFolder?
        if !missing.isEmpty {
            guard let folder = ScratchFolder("stocktake-content") else {
                throw .unreadableRoot(
                    path: path,
                    reason: "cannot make a temporary folder for the content checks: \(SystemError.currentText)")
            }
            copies = folder
            for (entry, file) in try copy(missing, into: folder) { sources[entry] = .file(file) }
        }
        for chosen in selected where sources[chosen.entry] == nil {
            leave(chosen, .unreadable, "the archive's entry could not be read again")
        }
        // A store's `-wal` is not selected, but read with it when the first pass kept it.
        let (located, kept, ordinals) = (sources, kept, dataOrdinals)
        let locate: @Sendable (Int32) -> ContentInspector.Source? = { located[$0] ?? kept[ordinals[Int($0)]] }
        var outcome = ContentInspector(root: "", inventory: inventory, threads: threads, locate: locate)
            .inspect(selected.filter { sources[$0.entry] != nil }, unread: unread)
        withExtendedLifetime(copies) {}
        outcome.countPassedOver(passedOver, in: inventory)
        return outcome
    }

    /// Streams each selected entry's first `bytes` into `folder/<index>`; returns where each landed.
    private func copy(_ selected: [ContentInspector.Selected], into folder: ScratchFolder) throws(ScanError) -> [Int32:
        String]
    {
        var wanted: [Int32: [ContentInspector.Selected]] = [:]
        for chosen in selected { wanted[dataOrdinals[Int(chosen.entry)], default: []].append(chosen) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        var copied: [Int32: String] = [:]
        try reread(wanted.keys, for: "the content checks") { ordinal, stream throws(ScanError) in
            guard let members = wanted[ordinal], let first = members.first else { return }
            var bytes: [UInt8] = []
            do throws(ArchiveReadFailure) {
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
                try error.throwIfFatal(archive: path)
                return
            }
            for member in members {
                if let file = folder.store("\(member.entry)", bytes) { copied[member.entry] = file }
            }
        }
        return copied
    }
}
