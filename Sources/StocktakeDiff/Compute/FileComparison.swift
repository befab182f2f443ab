import StocktakeModel
import StocktakeReport

/// The files of two reports compared path by path, then the unmatched ones paired up as moves.
///
/// Reports carry no content hashes, so "the same file at a new path" is inferred, and only when the
/// pairing is unambiguous: the one removed and the one added file with the same name, size and kind;
/// failing that, the one pair with the same size, kind and modification time (a rename keeps both).
/// Empty files never pair: every empty file looks alike.
struct FileComparison {
    let old: EntryTable
    let new: EntryTable

    func changes() -> FileChanges {
        var removed: [Int] = []
        var added: [Int] = []
        var kept: [Int] = []
        var changed: [SizeChange] = []
        PathJoin.forEach(old: old, new: new) { o, n in
            guard let o, let n else {
                if let o { removed.append(o) }
                if let n { added.append(n) }
                return
            }
            kept.append(n)
            let (before, after) = (old.size(at: o), new.size(at: n))
            if before.apparentBytes != after.apparentBytes || before.allocatedBytes != after.allocatedBytes {
                changed.append(SizeChange(id: new.path(at: n), old: before, new: after, location: new.locations[n]))
            }
        }
        var moved = pairUnambiguously(&removed, &added, byName: true, evidence: .sameNameAndSize)
        moved += pairUnambiguously(&removed, &added, byName: false, evidence: .sameSizeAndModified)
        let leftBehind = copiesOfKeptFiles(&added, kept: kept, removed: removed)

        let addedRows = added.map {
            SizeChange(id: new.path(at: $0), old: nil, new: new.size(at: $0), location: new.locations[$0])
        }
        let removedRows = removed.map {
            SizeChange(id: old.path(at: $0), old: old.size(at: $0), new: nil, location: old.locations[$0])
        }
        return FileChanges(
            added: ReportDiff.byMagnitude(addedRows), removed: ReportDiff.byMagnitude(removedRows),
            changed: ReportDiff.byMagnitude(changed), moved: Self.ranked(moved), leftBehind: Self.ranked(leftBehind))
    }

    /// The size and kind, with the name or else the modification time; nil for an empty file.
    private struct Key: Hashable {
        let name: ArraySlice<UInt8>?
        let modified: Int64?
        let apparentBytes: Int64
        let kind: ContentKind

        init?(_ table: EntryTable, _ row: Int, byName: Bool) {
            guard table.apparentBytes[row] > 0 else { return nil }
            (name, modified) = byName ? (table.nameBytes(at: row), nil) : (nil, table.modified[row])
            (apparentBytes, kind) = (table.apparentBytes[row], table.kinds[row])
        }
    }

    /// Rows whose key occurs exactly once in `rows`, by key.
    private static func uniqueRows(_ rows: [Int], in table: EntryTable, byName: Bool) -> [Key: Int] {
        var seen: [Key: Int] = [:]
        var ambiguous: Set<Key> = []
        for row in rows {
            guard let key = Key(table, row, byName: byName) else { continue }
            if seen.updateValue(row, forKey: key) != nil { ambiguous.insert(key) }
        }
        for key in ambiguous { seen[key] = nil }
        return seen
    }

    /// Pairs removed and added rows whose key is unique on both sides; the paired rows leave both lists.
    private func pairUnambiguously(
        _ removed: inout [Int], _ added: inout [Int], byName: Bool, evidence: FileMove.Evidence
    ) -> [FileMove] {
        guard !removed.isEmpty, !added.isEmpty else { return [] }
        let before = Self.uniqueRows(removed, in: old, byName: byName)
        let after = Self.uniqueRows(added, in: new, byName: byName)
        var moves: [FileMove] = []
        var pairedOld = Set<Int>()
        var pairedNew = Set<Int>()
        for (key, newRow) in after {
            guard let oldRow = before[key] else { continue }
            moves.append(move(from: oldRow, in: old, to: newRow, evidence: evidence))
            pairedOld.insert(oldRow)
            pairedNew.insert(newRow)
        }
        removed.removeAll { pairedOld.contains($0) }
        added.removeAll { pairedNew.contains($0) }
        return moves
    }

    /// Added files that match (by name, size and kind, unambiguously) a file that stayed at its path: the app copied
    /// data somewhere new and left the original behind. They leave `added`. An added file that also matches a removed
    /// one (left unpaired because several did) is not claimed: it may as well have moved.
    private func copiesOfKeptFiles(_ added: inout [Int], kept: [Int], removed: [Int]) -> [FileMove] {
        let candidates = Self.uniqueRows(added, in: new, byName: true)
        guard !candidates.isEmpty else { return [] }
        let sizes = Set(candidates.keys.map(\.apparentBytes))
        // Only files of a candidate size are keyed: most of a large container is skipped cheaply.
        let originals = Self.uniqueRows(kept.filter { sizes.contains(new.apparentBytes[$0]) }, in: new, byName: true)
        let removedKeys = Set(
            removed.filter { sizes.contains(old.apparentBytes[$0]) }.compactMap { Key(old, $0, byName: true) })
        var copies: [FileMove] = []
        var paired = Set<Int>()
        for (key, copyRow) in candidates where !removedKeys.contains(key) {
            guard let originalRow = originals[key] else { continue }
            copies.append(move(from: originalRow, in: new, to: copyRow, evidence: .sameNameAndSize))
            paired.insert(copyRow)
        }
        added.removeAll { paired.contains($0) }
        return copies
    }

    private func move(from oldRow: Int, in source: EntryTable, to newRow: Int, evidence: FileMove.Evidence) -> FileMove
    {
        FileMove(
            oldPath: source.path(at: oldRow), newPath: new.path(at: newRow),
            oldLocation: source.locations[oldRow], newLocation: new.locations[newRow],
            old: source.size(at: oldRow), new: new.size(at: newRow), evidence: evidence)
    }

    /// Largest first, then by new path: stable output.
    private static func ranked(_ moves: [FileMove]) -> [FileMove] {
        moves.sorted { a, b in
            if a.new.allocatedBytes != b.new.allocatedBytes { return a.new.allocatedBytes > b.new.allocatedBytes }
            return a.newPath.utf8.lexicographicallyPrecedes(b.newPath.utf8)
        }
    }
}
