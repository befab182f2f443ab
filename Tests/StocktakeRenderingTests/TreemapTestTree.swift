import StocktakeRendering
import TestSupport

/// A tree for treemap tests: nodes added parent first, each with its own bytes; a node's bytes are its own plus
/// everything beneath, as a report's folder totals are.
struct TreemapTestTree: TreemapSource {
    private(set) var parents: [Int32] = [-1]
    private(set) var childLists: [[Int32]] = [[]]
    private(set) var names: [[UInt8]] = [Array("root".utf8)]
    private(set) var folders: [Bool] = [true]
    private(set) var totals: [Int64] = [0]

    var root: Int32 { 0 }
    var count: Int { parents.count }

    /// Adds a node under `parent` holding `bytes` of its own; returns its number.
    @discardableResult
    mutating func add(_ name: String, under parent: Int32, bytes: Int64 = 0, folder: Bool = false) -> Int32 {
        let node = Int32(parents.count)
        parents.append(parent)
        childLists.append([])
        names.append(Array(name.utf8))
        folders.append(folder)
        totals.append(bytes)
        childLists[Int(parent)].append(node)
        var current = parent
        while current >= 0 {
            totals[Int(current)] += bytes
            current = parents[Int(current)]
        }
        return node
    }

    func parent(_ node: Int32) -> Int32 { parents[Int(node)] }
    func children(_ node: Int32) -> ArraySlice<Int32> { childLists[Int(node)][...] }
    func name(_ node: Int32) -> ArraySlice<UInt8> { names[Int(node)][...] }
    func isFolder(_ node: Int32) -> Bool { folders[Int(node)] }
    func bytes(_ node: Int32) -> Int64 { totals[Int(node)] }

    /// A random tree: folders up to `depth` deep, sizes spread over six orders of magnitude, some zero.
    static func random(seed: UInt64, nodes: Int, depth: Int = 6) -> TreemapTestTree {
        var generator = SeededGenerator(seed: seed)
        var tree = TreemapTestTree()
        var openFolders: [(node: Int32, depth: Int)] = [(0, 0)]
        for number in 0..<nodes {
            let (parent, parentDepth) = openFolders[Int.random(in: 0..<openFolders.count, using: &generator)]
            if parentDepth < depth, Int.random(in: 0..<4, using: &generator) == 0 {
                let folder = tree.add("d\(number)", under: parent, bytes: 4096, folder: true)
                openFolders.append((folder, parentDepth + 1))
            } else {
                let magnitude = Int.random(in: 0...6, using: &generator)
                let bytes =
                    Int.random(in: 0...6, using: &generator) == 0
                    ? 0 : Int64.random(in: 1...10, using: &generator) * Int64(pow10(magnitude))
                tree.add("f\(number)", under: parent, bytes: bytes)
            }
        }
        return tree
    }

    private static func pow10(_ exponent: Int) -> Int { (0..<exponent).reduce(1) { result, _ in result * 10 } }
}

extension LayoutRect {
    /// Long side over short side: 1 for a square, infinity for a sliver of no width.
    var aspectRatio: Double {
        let long = max(width, height)
        let short = min(width, height)
        return short > 0 ? long / short : .infinity
    }
}
