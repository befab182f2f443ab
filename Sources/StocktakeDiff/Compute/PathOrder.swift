import StocktakeReport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-order comparison of paths held in entry tables: the order `report.json` lists them in, so two
/// reports can be joined in one pass instead of through a million-entry dictionary.
extension EntryTable {
    /// Negative, zero or positive as row `row`'s path sorts before, equal to or after `other`'s row `otherRow`.
    func comparePath(_ row: Int, with other: EntryTable, _ otherRow: Int) -> Int {
        let mine = pathRange(row)
        let theirs = other.pathRange(otherRow)
        let common = min(mine.count, theirs.count)
        let order = pathArena.withUnsafeBufferPointer { a in
            other.pathArena.withUnsafeBufferPointer { b in
                common == 0
                    ? 0 : Int(memcmp(a.baseAddress! + mine.lowerBound, b.baseAddress! + theirs.lowerBound, common))
            }
        }
        return order != 0 ? order : mine.count - theirs.count
    }

    /// Row numbers in path byte order, each path once: `0..<count` when the report already lists them so (Stocktake's
    /// reports do), otherwise sorted, so that reports edited or merged by other tools still join correctly. A path
    /// listed twice keeps its first row: otherwise the join would call one path both kept and removed (or added).
    func rowsInPathOrder() -> [Int] {
        let rows = Array(0..<count)
        guard rows.dropFirst().contains(where: { comparePath($0 - 1, with: self, $0) >= 0 }) else { return rows }
        let sorted = rows.sorted { a, b in
            let order = comparePath(a, with: self, b)
            return order != 0 ? order < 0 : a < b
        }
        return sorted.indices.compactMap { i in
            i > 0 && comparePath(sorted[i - 1], with: self, sorted[i]) == 0 ? nil : sorted[i]
        }
    }
}

/// Both tables walked together in path order: each path's row in the old table and in the new one, nil on the side
/// that lacks it.
enum PathJoin {
    static func forEach(old: EntryTable, new: EntryTable, _ body: (_ old: Int?, _ new: Int?) -> Void) {
        let oldRows = old.rowsInPathOrder()
        let newRows = new.rowsInPathOrder()
        var (i, j) = (0, 0)
        while i < oldRows.count || j < newRows.count {
            // A side that has run out sorts after every row of the other.
            let order =
                i == oldRows.count ? 1 : j == newRows.count ? -1 : old.comparePath(oldRows[i], with: new, newRows[j])
            body(order <= 0 ? oldRows[i] : nil, order >= 0 ? newRows[j] : nil)
            if order <= 0 { i += 1 }
            if order >= 0 { j += 1 }
        }
    }
}
