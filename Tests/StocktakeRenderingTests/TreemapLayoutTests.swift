import StocktakeRendering
import TestSupport
import Testing

/// The treemap's geometry: tiles inside their parent, never overlapping, areas proportional to bytes, totals kept,
/// near-square on random trees, bounded on trees of any shape.
@Suite struct TreemapLayoutTests {
    /// Layout units are a reference frame of 1,200 × 750; a pixel of rounding is about one unit.
    static let tolerance = 1e-6

    @Test(arguments: 0..<40)
    func squarifyFillsTheBoundsInProportion(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let count = Int.random(in: 1...120, using: &generator)
        let weights = (0..<count).map { _ in
            Int.random(in: 0...9, using: &generator) == 0 ? 0 : Double.random(in: 1...1e6, using: &generator)
        }
        let bounds = LayoutRect(
            x: 10, y: 20, width: Double.random(in: 50...1200, using: &generator),
            height: Double.random(in: 50...900, using: &generator))
        let rects = Squarify.layout(weights, in: bounds)
        #expect(rects.count == weights.count)
        let total = weights.reduce(0, +)
        for (weight, rect) in zip(weights, rects) {
            expectInside(rect, bounds)
            if total > 0 { #expect(abs(rect.area - bounds.area * weight / total) <= 1e-6 * bounds.area) }
        }
        expectDisjoint(rects)
        if total > 0 { #expect(abs(rects.reduce(0) { $0 + $1.area } - bounds.area) <= 1e-6 * bounds.area) }
    }

    @Test func squarifyOfNothingPositiveIsEmpty() {
        let bounds = LayoutRect(x: 0, y: 0, width: 100, height: 50)
        #expect(Squarify.layout([], in: bounds).isEmpty)
        #expect(Squarify.layout([0, 0, -3, .nan], in: bounds).allSatisfy { $0.area == 0 })
        #expect(Squarify.layout([5], in: bounds) == [bounds])
    }

    /// Squarified tiles stay near square. Measured over 200 random trees (seeds 0–199): the area-weighted mean
    /// aspect ratio of the drawn tiles is at most 1.71 in every tree, and at least 97.2% of each tree's area lies in
    /// tiles no longer than 4:1. The bounds below are those figures with a margin; laying all children in one row
    /// (slice and dice: 11.4 and 64%) breaks them.
    @Test func tilesStayNearSquare() {
        var worstMean = 0.0
        var worstShare = 1.0
        for seed in 0..<200 as Range<UInt64> {
            let tree = TreemapTestTree.random(seed: seed, nodes: 400)
            let tiles = TreemapLayout(tree).views.flatMap(\.tiles).flatMap { [$0] + $0.children }.filter {
                $0.rect.area > 0
            }
            let area = tiles.reduce(0) { $0 + $1.rect.area }
            guard area > 0 else { continue }
            let mean = tiles.reduce(0) { $0 + $1.rect.area * $1.rect.aspectRatio } / area
            let squarish = tiles.filter { $0.rect.aspectRatio <= 4 }.reduce(0) { $0 + $1.rect.area } / area
            worstMean = max(worstMean, mean)
            worstShare = min(worstShare, squarish)
        }
        #expect(worstMean <= 1.9, "area-weighted mean aspect ratio \(worstMean)")
        #expect(worstShare >= 0.95, "share of the area in tiles up to 4:1: \(worstShare)")
    }

    @Test(arguments: 0..<60)
    func tilesNestInsideTheirParentsAndKeepTotals(seed: UInt64) {
        let tree = TreemapTestTree.random(seed: seed, nodes: Int(seed % 7 + 1) * 150)
        let layout = TreemapLayout(tree)
        let budget = TreemapLayout.Budget()
        #expect(layout.views.count <= budget.views)
        #expect(layout.views.reduce(0) { $0 + $1.tiles.flatMap(\.flattened).count } <= budget.tiles)
        #expect(layout.views.first?.folder == tree.root)
        for view in layout.views {
            expectNested(view.tiles, of: view.folder, in: TreemapLayout.frame, tree: tree, depth: 1)
        }
        // Every view but the root's is reachable: its folder is drawn in an earlier view.
        for (number, view) in layout.views.enumerated().dropFirst() {
            let drawn = layout.views[..<number].contains {
                $0.tiles.flatMap(\.flattened).contains { $0.node == view.folder }
            }
            #expect(drawn, "view \(number) of node \(view.folder) is not drawn in an earlier view")
        }
    }

    /// Issue 42: one picture reaches three folders deep where the tiles are large enough, never deeper than the
    /// budget's levels.
    @Test func aDeepTreeNestsThreeFolderLevels() {
        var tree = TreemapTestTree()
        for top in 0..<3 {
            let a = tree.add("a\(top)", under: 0, bytes: 4096, folder: true)
            for middle in 0..<3 {
                let b = tree.add("b\(middle)", under: a, bytes: 4096, folder: true)
                for inner in 0..<3 {
                    let c = tree.add("c\(inner)", under: b, bytes: 4096, folder: true)
                    for leaf in 0..<3 {
                        let d = tree.add("d\(leaf)", under: c, bytes: 4096, folder: true)
                        for file in 0..<3 { tree.add("f\(file)", under: d, bytes: 1 << 20) }
                    }
                }
            }
        }
        func depth(_ tiles: [TreemapLayout.Tile]) -> Int {
            tiles.map { $0.children.isEmpty ? 0 : 1 + depth($0.children) }.max() ?? 0
        }
        let layout = TreemapLayout(tree)
        #expect(depth(layout.views[0].tiles) >= 3, "folders open three levels deep in the first picture")
        #expect(depth(layout.views[0].tiles) < TreemapLayout.Budget().levels.count)
    }

    @Test func zeroBytesOneFileAndEmptyTreesLayOut() {
        var zeros = TreemapTestTree()
        for number in 0..<50 { zeros.add("empty\(number)", under: 0) }
        #expect(TreemapLayout(zeros).views.allSatisfy { $0.tiles.allSatisfy { $0.rect.area == 0 } })

        var one = TreemapTestTree()
        one.add("only", under: 0, bytes: 4096)
        let layout = TreemapLayout(one)
        #expect(layout.views.count == 1)
        #expect(layout.views[0].tiles.map(\.node) == [1])
        #expect(layout.views[0].tiles[0].rect == TreemapLayout.frame)
        #expect(TreemapLayout(TreemapTestTree()).views.allSatisfy { $0.tiles.isEmpty })
    }

    @Test func aFlatFolderOfAMillionFilesStaysWithinTheBudget() {
        var tree = TreemapTestTree()
        for number in 0..<1_000_000 { tree.add("f\(number)", under: 0, bytes: Int64(number % 1000 + 1) * 4096) }
        let layout = TreemapLayout(tree)
        let tiles = layout.views[0].tiles
        #expect(tiles.count <= TreemapLayout.Budget().levels[0] + 1)
        let rest = tiles.last { $0.isRest }
        #expect(rest?.restCount == 1_000_000 - (tiles.count - 1))
        #expect(tiles.reduce(0) { $0 + $1.bytes } == tree.bytes(0))
        #expect(abs(tiles.reduce(0) { $0 + $1.rect.area } - TreemapLayout.frame.area) < 1e-3)
    }

    @Test func aPathTenThousandFoldersDeepStaysWithinTheBudget() {
        var tree = TreemapTestTree()
        var parent: Int32 = 0
        for depth in 0..<10_000 { parent = tree.add("level\(depth)", under: parent, bytes: 4096, folder: true) }
        tree.add("leaf", under: parent, bytes: 1 << 20)
        let layout = TreemapLayout(tree)
        #expect(layout.views.count == TreemapLayout.Budget().views)
        let html = TreemapSVG(layout: layout, source: tree, idPrefix: "t", rootName: "root", shareOf: "of all") { _ in
            TreemapLook(classes: "")
        }
        .render(label: "deep").markup
        // Breadcrumbs and titles show a bounded tail of the path, so the page does not grow with the depth squared.
        #expect(html.utf8.count < 400_000, "\(html.utf8.count) bytes")
        #expect(html.contains("…/level"))
    }

    // MARK: - Checks

    /// A level's tiles, and each folder's below its header: inside `bounds`, disjoint, no deeper than the budget,
    /// area proportional to bytes against the folder's bytes, the bytes adding up to the folder's children (the
    /// "smaller items" tile included).
    private func expectNested(
        _ tiles: [TreemapLayout.Tile], of folder: Int32, in bounds: LayoutRect, tree: TreemapTestTree, depth: Int
    ) {
        #expect(tiles.isEmpty || depth <= TreemapLayout.Budget().levels.count)
        for tile in tiles where !tile.children.isEmpty {
            let inner = tile.rect.inset(top: TreemapLayout.headerHeight, side: TreemapLayout.border)
            expectNested(tile.children, of: tile.node, in: inner, tree: tree, depth: depth + 1)
        }
        for tile in tiles { expectInside(tile.rect, bounds) }
        expectDisjoint(tiles.map(\.rect))
        let childBytes = tree.children(folder).reduce(Int64(0)) { $0 + tree.bytes($1) }
        #expect(tiles.isEmpty || tiles.reduce(0) { $0 + $1.bytes } == childBytes)
        let folderBytes = Double(tree.bytes(folder))
        for tile in tiles where folderBytes > 0 {
            #expect(
                abs(tile.rect.area - bounds.area * Double(tile.bytes) / folderBytes) <= 1e-6 * bounds.area
                    + Self.tolerance)
        }
        #expect(tiles.filter(\.isRest).count <= 1)
    }

    private func expectInside(_ rect: LayoutRect, _ bounds: LayoutRect) {
        let slack = 1e-6 * max(bounds.width, bounds.height)
        #expect(rect.width >= 0 && rect.height >= 0)
        #expect(rect.x >= bounds.x - slack && rect.y >= bounds.y - slack)
        #expect(rect.x + rect.width <= bounds.x + bounds.width + slack, "\(rect) outside \(bounds)")
        #expect(rect.y + rect.height <= bounds.y + bounds.height + slack, "\(rect) outside \(bounds)")
    }

    private func expectDisjoint(_ rects: [LayoutRect]) {
        let drawn = rects.filter { $0.area > 0 }
        for i in drawn.indices {
            for j in drawn.indices where j > i {
                let a = drawn[i]
                let b = drawn[j]
                let overlapWidth = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
                let overlapHeight = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
                #expect(overlapWidth <= 1e-6 || overlapHeight <= 1e-6, "\(a) overlaps \(b)")
            }
        }
    }
}

/// Issue 41, 1: children whose sizes add past Int64 (sparse files claim exabytes each; a recorded report claims
/// anything) trapped the layout's sum of tiles. Sizes add up to the limit and the tiles still lay out.
@Suite struct TreemapOverflowTests {
    /// A root of `sizes.count` children, its own total saturated as every total of a report is.
    struct Flat: TreemapSource {
        let sizes: [Int64]
        var root: Int32 { 0 }
        func parent(_ node: Int32) -> Int32 { node == 0 ? -1 : 0 }
        func children(_ node: Int32) -> ArraySlice<Int32> {
            node == 0 ? Array(1...Int32(sizes.count))[...] : []
        }
        func name(_ node: Int32) -> ArraySlice<UInt8> { Array("n\(node)".utf8)[...] }
        func isFolder(_ node: Int32) -> Bool { node == 0 }
        func bytes(_ node: Int32) -> Int64 {
            guard node == 0 else { return sizes[Int(node) - 1] }
            return sizes.reduce(0) { $0.addingReportingOverflow($1).overflow ? .max : $0 + $1 }
        }
    }

    @Test(arguments: [
        [5_000_000_000_000_000_000, 5_000_000_000_000_000_000], [Int64.max, Int64.max, 1],
        Array(repeating: Int64.max / 3, count: 40),
    ])
    func sizesPastInt64LayOut(_ sizes: [Int64]) {
        let source = Flat(sizes: sizes)
        let layout = TreemapLayout(source)
        #expect(layout.totalBytes == Int64.max)
        let tiles = layout.views.first?.tiles ?? []
        #expect(!tiles.isEmpty)
        #expect(tiles.allSatisfy { $0.bytes >= 0 && $0.rect.width >= 0 && $0.rect.height >= 0 })
        _ = TreemapSVG(layout: layout, source: source, idPrefix: "t", rootName: "root", shareOf: "of all") { _ in
            TreemapLook(classes: "x")
        }.render(label: "sizes")
    }
}
