import StocktakeContent
import StocktakeFiles
import StocktakeModel

extension ArchiveInput {
    /// What the content checks find in the archive's files, read from what the first pass kept; the few selected
    /// files it did not keep (its bounds reached, or the archive read without capture) are copied by a second pass
    /// into a private temporary folder (one file per archive entry, a text file only up to its prefix),
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
        var copies: ContentCapture?
        if !missing.isEmpty {
            guard let capture = ContentCapture() else {
                throw .unreadableRoot(
                    path: path,
                    reason: "cannot make a temporary folder for the content checks: \(SystemError.currentText)")
            }
            copies = capture
            let copied = try copy(missing, with: capture)
            for chosen in missing { sources[chosen.entry] = copied[dataOrdinals[Int(chosen.entry)]].map { .file($0) } }
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

    /// Streams each selected entry's first `bytes` (the most any name of it needs) into a file of its own in
    /// `capture`'s folder, as the first pass does with a large entry; returns where each archive entry landed.
    private func copy(_ selected: [ContentInspector.Selected], with capture: ContentCapture) throws(ScanError)
        -> [Int32: String]
    {
        let wanted = Dictionary(selected.map { (dataOrdinals[Int($0.entry)], $0.bytes) }, uniquingKeysWith: max)
        var copied: [Int32: String] = [:]
        try reread(wanted.keys, for: "the content checks") { ordinal, stream throws(ScanError) in
            do throws(ArchiveReadFailure) {
                // A text file's prefix is what is read; the next header skips the rest.
                copied[ordinal] = try capture.copy(ordinal: ordinal, bytes: wanted[ordinal] ?? 0, stream: stream)
            } catch {
                try error.throwIfFatal(archive: path)
            }
        }
        return copied
    }
}
