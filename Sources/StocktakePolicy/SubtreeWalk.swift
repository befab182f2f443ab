import StocktakeModel

/// A depth-first visit in path order that also says when each entry's subtree is complete, so rules can
/// total per folder with a stack as deep as the tree instead of arrays as long as the inventory.
enum SubtreeWalk {
    /// `visit` runs for every entry before its descendants; `finish` runs for every entry after them.
    static func run(_ inventory: Inventory, visit: (Int32) -> Void, finish: (Int32) -> Void) {
        // Pre-order keeps a subtree contiguous: an open entry is done once a visit reaches a non-descendant.
        var open: [Int32] = []
        inventory.forEachInPathOrder { index in
            let parent = inventory.entries[Int(index)].parent
            while let last = open.last, last != parent {
                open.removeLast()
                finish(last)
            }
            visit(index)
            open.append(index)
        }
        while let last = open.popLast() { finish(last) }
    }
}
