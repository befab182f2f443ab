import StocktakeModel

/// A depth-first visit in path order that also says when each entry's subtree is complete, so rules can
/// total per folder with a stack as deep as the tree instead of arrays as long as the inventory.
enum SubtreeWalk {
    /// `visit` runs for every entry before its descendants; `finish` runs for every folder after them.
    static func run(_ inventory: Inventory, visit: (Int32, Entry) -> Void, finish: (Int32) -> Void) {
        // Pre-order keeps a subtree contiguous: an open entry is done once a visit reaches a non-descendant.
        var open: [(index: Int32, isFolder: Bool)] = []
        inventory.forEachEntryInPathOrder { index, entry in
            while let last = open.last, last.index != entry.parent {
                open.removeLast()
                if last.isFolder { finish(last.index) }
            }
            visit(index, entry)
            open.append((index, entry.isDirectory))
        }
        for last in open.reversed() where last.isFolder { finish(last.index) }
    }
}
