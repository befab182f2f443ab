import StocktakeModel

extension Report {
    /// App-data files by allocated size, largest first (ties by path order), at most `limit`.
    public func largestFiles(limit: Int) -> [Int32] {
        largest(limit: limit, where: { $0.isAppData && $0.countsBytes }) { entry, _ in entry.allocatedBytes }
    }

    /// Directories by the allocated size beneath them, largest first, the root left out.
    public func largestDirectories(limit: Int) -> [Int32] {
        largest(limit: limit, where: { $0.isDirectory }) { _, index in
            index == inventory.root ? -1 : inventory.directoryTotals[index]?.allocatedBytes ?? 0
        }
    }

    /// App data per content kind.
    public var kinds: [(kind: ContentKind, total: SizeTotal)] {
        var totals: [ContentKind: SizeTotal] = [:]
        for entry in inventory.entries where entry.isAppData && entry.type == .file {
            totals[entry.kind, default: .zero].add(entry)
        }
        return totals.map { ($0.key, $0.value) }
            .sorted { ($0.total.allocatedBytes, $1.kind.name) > ($1.total.allocatedBytes, $0.kind.name) }
    }

    private func largest(limit: Int, where include: (Entry) -> Bool, size: (Entry, Int32) -> Int64) -> [Int32] {
        var picked: [(size: Int64, order: Int, index: Int32)] = []
        var order = 0
        inventory.forEachInPathOrder { index in
            order += 1
            let entry = inventory.entries[Int(index)]
            guard include(entry) else { return }
            let bytes = size(entry, index)
            guard bytes >= 0 else { return }
            picked.append((bytes, order, index))
            if picked.count > limit * 4 { trim(&picked, to: limit) }
        }
        trim(&picked, to: limit)
        return picked.map(\.index)
    }

    private func trim(_ picked: inout [(size: Int64, order: Int, index: Int32)], to limit: Int) {
        picked.sort { ($0.size, -$0.order) > ($1.size, -$1.order) }
        if picked.count > limit { picked.removeLast(picked.count - limit) }
    }
}

extension Report {
    /// Everything that could not be read: malformed metadata plists (paths relative to the input), the walk's
    /// issues, then what later steps could not read.
    public var issues: [ScanIssue] {
        let metadata = container.metadata.compactMap { document in
            document.problem.map { ScanIssue(path: Array(document.path.utf8), reason: .malformedMetadata, detail: $0) }
        }
        return metadata + inventory.issues + laterIssues
    }
}
