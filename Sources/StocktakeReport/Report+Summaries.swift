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
        // Each entry's place in path order, so the entries themselves are read in their own order, not jumping about.
        var rank = [Int32](repeating: 0, count: inventory.entries.count)
        var place: Int32 = 0
        inventory.forEachInPathOrder { index in
            rank[Int(index)] = place
            place += 1
        }
        var picked: [(size: Int64, order: Int, index: Int32)] = []
        // Once `limit` are kept, one at or below the smallest kept cannot get in: ties go to the earlier path.
        var floor: (size: Int64, order: Int) = (-1, 0)
        for (index, entry) in inventory.entries.enumerated() where include(entry) {
            let bytes = size(entry, Int32(index))
            let order = Int(rank[index])
            guard bytes >= 0, (bytes, -order) > (floor.size, -floor.order) else { continue }
            picked.append((bytes, order, Int32(index)))
            if picked.count > limit * 4 {
                trim(&picked, to: limit)
                if picked.count == limit, let smallest = picked.last { floor = (smallest.size, smallest.order) }
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
