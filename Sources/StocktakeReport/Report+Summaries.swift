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
        // Indexed by the kind's raw value, not hashed: this runs over every entry.
        var totals = [SizeTotal?](repeating: nil, count: Int(UInt8.max) + 1)
        for entry in inventory.entries where entry.isAppData && entry.type == .file {
            let slot = Int(entry.kind.rawValue)
            var total = totals[slot] ?? .zero
            total.add(entry)
            totals[slot] = total
        }
        return ContentKind.allCases.compactMap { kind in totals[Int(kind.rawValue)].map { (kind, $0) } }
            .sorted { ($0.total.allocatedBytes, $1.kind.name) > ($1.total.allocatedBytes, $0.kind.name) }
    }

    private func largest(limit: Int, where include: (Entry) -> Bool, size: (Entry, Int32) -> Int64) -> [Int32] {
        var picked: [(size: Int64, order: Int, index: Int32)] = []
        var order = 0
        // Once `limit` are kept, a size at or below the smallest kept cannot get in: ties go to the earlier path.
        var floor: Int64 = -1
        inventory.forEachInPathOrder { index in
            order += 1
            let entry = inventory.entries[Int(index)]
            guard include(entry) else { return }
            let bytes = size(entry, index)
            guard bytes >= 0, bytes > floor else { return }
            picked.append((bytes, order, index))
            if picked.count > limit * 4 {
                trim(&picked, to: limit)
                if picked.count == limit, let smallest = picked.last { floor = smallest.size }
            }
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
