import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// Both reports' folders and files as one tree, each node with its old and new allocated bytes (0 on a side that
/// lacks it): what the diff's treemap draws the change of. Built in one pass over each table in path order (a
/// parent's path sorts before its children's), so a million rows cost a few arrays, not a million objects.
package struct GrowthTree: Sendable, TreemapSource {
    private var parents: [Int32] = []
    private var nameArena: [UInt8] = []
    private var nameEnds: [Int] = []
    package private(set) var oldBytes: [Int64] = []
    package private(set) var newBytes: [Int64] = []
    private var presence: [Presence] = []
    package private(set) var locations: [Location] = []
    private var folders: [Bool] = []
    private var childStarts: [Int] = []
    private var childList: [Int32] = []

    /// Which reports hold a node.
    package enum Presence: UInt8, Sendable { case both, onlyOld, onlyNew }

    package init(old: ReportSnapshot, new: ReportSnapshot) {
        var folderOfPath: [ByteKey: Int32] = [ByteKey([][...]): 0]
        addNode(
            parent: -1, name: [], old: old.totals.onDisk.allocatedBytes, new: new.totals.onDisk.allocatedBytes,
            presence: .both, location: .other, folder: true)
        // Rows come in path order, so a folder's entries mostly follow one another: the last parent found is reused.
        var lastParent: (path: ArraySlice<UInt8>, node: Int32)?
        for isFolder in [true, false] {
            let (oldTable, newTable) = isFolder ? (old.directories, new.directories) : (old.files, new.files)
            PathJoin.forEach(old: oldTable, new: newTable) { o, n in
                let path = n.map { newTable.pathBytes(at: $0) } ?? oldTable.pathBytes(at: o!)
                guard !path.isEmpty else { return }  // the root: its figures are the totals
                let slash = path.lastIndex(of: UInt8(ascii: "/"))
                let parentPath = path[path.startIndex..<(slash ?? path.startIndex)]
                let parent: Int32
                if let last = lastParent, last.path.elementsEqual(parentPath) {
                    parent = last.node
                } else {
                    // A folder missing from its report (an edited one) hangs its entries on the root rather than losing them.
                    parent = folderOfPath[ByteKey(parentPath)] ?? 0
                    lastParent = (parentPath, parent)
                }
                let node = addNode(
                    parent: parent, name: slash.map { path[($0 + 1)...] } ?? path,
                    old: max(0, o.map { oldTable.allocatedBytes[$0] } ?? 0),
                    new: max(0, n.map { newTable.allocatedBytes[$0] } ?? 0),
                    presence: o == nil ? .onlyNew : n == nil ? .onlyOld : .both,
                    location: n.map { newTable.locations[$0] } ?? oldTable.locations[o!], folder: isFolder)
                if isFolder, folderOfPath[ByteKey(path)] == nil { folderOfPath[ByteKey(path)] = node }
            }
        }
        linkChildren()
    }

    @discardableResult
    private mutating func addNode(
        parent: Int32, name: some Collection<UInt8>, old: Int64, new: Int64, presence: Presence, location: Location,
        folder: Bool
    ) -> Int32 {
        parents.append(parent)
        nameArena.append(contentsOf: name)
        nameEnds.append(nameArena.count)
        oldBytes.append(old)
        newBytes.append(new)
        self.presence.append(presence)
        locations.append(location)
        folders.append(folder)
        return Int32(parents.count - 1)
    }

    /// Children in one flat list by parent (counting sort), each folder's in path order.
    private mutating func linkChildren() {
        var counts = [Int](repeating: 0, count: parents.count + 1)
        for parent in parents where parent >= 0 { counts[Int(parent) + 1] += 1 }
        for index in counts.indices.dropFirst() { counts[index] += counts[index - 1] }
        childStarts = counts
        var next = counts
        childList = [Int32](repeating: 0, count: parents.count)
        for (node, parent) in parents.enumerated() where parent >= 0 {
            childList[next[Int(parent)]] = Int32(node)
            next[Int(parent)] += 1
        }
    }

    package var count: Int { parents.count }
    package var root: Int32 { 0 }
    package func parent(_ node: Int32) -> Int32 { parents[Int(node)] }
    package func children(_ node: Int32) -> ArraySlice<Int32> {
        childList[childStarts[Int(node)]..<childStarts[Int(node) + 1]]
    }
    package func name(_ node: Int32) -> ArraySlice<UInt8> {
        nameArena[(node == 0 ? 0 : nameEnds[Int(node) - 1])..<nameEnds[Int(node)]]
    }
    package func isFolder(_ node: Int32) -> Bool { folders[Int(node)] }
    /// The newer version's size (removed items have none).
    package func bytes(_ node: Int32) -> Int64 { newBytes[Int(node)] }
    package func presence(_ node: Int32) -> Presence { presence[Int(node)] }

    /// The node at a `/`-separated path, walking down from the root. A folder's children are its folders, then its
    /// files, each run in name order (the tables' path order), so each step is two binary searches.
    package func node(atPath path: [UInt8]) -> Int32? {
        var current = root
        for component in path.split(separator: UInt8(ascii: "/")) {
            let siblings = children(current)
            let firstFile = siblings.partitionPoint(where: { !isFolder($0) })
            guard
                let next = search(component, in: siblings[..<firstFile])
                    ?? search(component, in: siblings[firstFile...])
            else {
                return nil
            }
            current = next
        }
        return current
    }

    private func search(_ component: ArraySlice<UInt8>, in run: ArraySlice<Int32>) -> Int32? {
        let index = run.partitionPoint(where: { !name($0).lexicographicallyPrecedes(component) })
        guard index < run.endIndex, name(run[index]).elementsEqual(component) else { return nil }
        return run[index]
    }
}

extension ArraySlice {
    /// The first index whose element satisfies `predicate`, for a predicate false then true along the slice.
    fileprivate func partitionPoint(where predicate: (Element) -> Bool) -> Index {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
