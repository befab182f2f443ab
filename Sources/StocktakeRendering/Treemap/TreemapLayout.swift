import StocktakeModel

/// Which folders of a tree get a picture of their own ("views"), and the tiles of each, laid out. A view shows a
/// folder's children and, inside each child folder large enough, that folder's children, and so on: three levels,
/// nested, so one picture reaches from the container into the folders inside its locations.
/// Everything is bounded: at most `Budget.tiles` tiles over all views, whatever the size or shape of the tree,
/// and a folder's children beyond what fits become one "N smaller items" tile whose bytes still count.
public struct TreemapLayout: Sendable {
    /// The reference frame views are laid out in unless told otherwise (8:5; the page scales it to its width).
    public static let frame = LayoutRect(x: 0, y: 0, width: 1200, height: 750)
    /// A folder tile holding children keeps this much on top for its name, and a thin border.
    public static let headerHeight = 18.0
    public static let border = 2.0

    public struct Budget: Sendable {
        public var tiles = 600
        public var views = 80
        /// Children drawn one by one at each nested level, largest first: the viewed folder's, then at most this
        /// many inside each child folder (fewer where its tile is small), and so on.
        public var levels = [30, 12, 8, 6]
        /// A tile smaller than this (in frame units², about 10 × 10) is summed into the "smaller items".
        public var minimumArea = 100.0

        public init() {}
    }

    public struct Tile: Sendable {
        /// The node, or -1 for the "smaller items" tile.
        public let node: Int32
        /// For the "smaller items" tile: how many children it sums.
        public let restCount: Int
        public let bytes: Int64
        /// In the frame's units, for children as for the tiles of the first level.
        public let rect: LayoutRect
        /// The next level: the folder's children, inside `rect` below its header.
        public let children: [Tile]

        public var isRest: Bool { node < 0 }
        /// This tile and every tile nested in it.
        public var flattened: [Tile] { [self] + children.flatMap(\.flattened) }
    }

    public struct View: Sendable {
        public let folder: Int32
        public let tiles: [Tile]
    }

    /// Views in the order they were made: the root first, then the largest folders.
    public let views: [View]
    /// The view of each folder that has one.
    public let viewOfFolder: [Int32: Int]
    public let totalBytes: Int64
    public let frame: LayoutRect

    public init(_ source: some TreemapSource, frame: LayoutRect = Self.frame, budget: Budget = Budget()) {
        var views: [View] = []
        var viewOfFolder: [Int32: Int] = [:]
        var tilesLeft = budget.tiles
        // Folders waiting for a view (a few hundred at most): the largest first, among equals the one found first.
        var candidates = [(bytes: source.bytes(source.root), node: source.root)]
        while views.count < budget.views, tilesLeft > 0,
            let best = candidates.indices.max(by: { candidates[$0].bytes < candidates[$1].bytes })
        {
            let next = candidates.remove(at: best)
            guard viewOfFolder[next.node] == nil else { continue }
            // A picture that does not fit what is left nests fewer levels, so large folders keep pictures.
            var levels = budget
            var tiles = Self.tiles(of: next.node, in: source, bounds: frame, budget: levels)
            while levels.levels.count > 1, tiles.flatMap(\.flattened).count > tilesLeft {
                levels.levels.removeLast()
                tiles = Self.tiles(of: next.node, in: source, bounds: frame, budget: levels)
            }
            let all = tiles.flatMap(\.flattened)
            guard !all.isEmpty, all.count <= tilesLeft else { continue }
            tilesLeft -= all.count
            viewOfFolder[next.node] = views.count
            views.append(View(folder: next.node, tiles: tiles))
            for candidate in all where !candidate.isRest && source.isFolder(candidate.node) {
                guard !source.children(candidate.node).isEmpty, candidate.bytes > 0 else { continue }
                candidates.append((candidate.bytes, candidate.node))
            }
        }
        (self.views, self.viewOfFolder) = (views, viewOfFolder)
        totalBytes = max(0, source.bytes(source.root))
        self.frame = frame
    }

    /// A folder's view: its largest children laid out in `bounds`, and inside each child folder its own, down to
    /// `budget.levels.count` levels; a level holds fewer children the smaller its folder's tile.
    static func tiles(
        of folder: Int32, in source: some TreemapSource, bounds: LayoutRect, budget: Budget, depth: Int = 0
    ) -> [Tile] {
        guard depth < budget.levels.count else { return [] }
        let fits = depth == 0 ? Int.max : Int(bounds.area / (budget.minimumArea * 30))
        guard depth == 0 || (bounds.width >= 24 && bounds.height >= 12) else { return [] }
        let level = level(
            of: folder, in: source, bounds: bounds, limit: min(budget.levels[depth], fits),
            minimumArea: budget.minimumArea)
        return level.map { tile in
            guard !tile.isRest, source.isFolder(tile.node) else { return tile }
            let inner = tile.rect.inset(top: headerHeight, side: border)
            let children = tiles(of: tile.node, in: source, bounds: inner, budget: budget, depth: depth + 1)
            return Tile(node: tile.node, restCount: 0, bytes: tile.bytes, rect: tile.rect, children: children)
        }
    }

    /// One level: the folder's largest children (ties in the tree's order) while each stays at least
    /// `minimumArea`, the rest summed, the folder's own bytes (its blocks) left as empty space.
    static func level(
        of folder: Int32, in source: some TreemapSource, bounds: LayoutRect, limit: Int, minimumArea: Double
    ) -> [Tile] {
        let folderBytes = max(0, source.bytes(folder))
        guard folderBytes > 0, limit > 0 else { return [] }
        let largest = LargestChildren(of: folder, in: source, keeping: limit)
        let perByte = bounds.area / Double(max(folderBytes, largest.total))
        let shown = largest.kept.prefix { Double($0.bytes) * perByte >= minimumArea }
        let restBytes = largest.total.saturatingSubtract(shown.map(\.bytes).saturatingSum())
        let restCount = largest.count - shown.count
        var weights = shown.map { Double($0.bytes) }
        weights.append(Double(restBytes))
        // The folder's own blocks: no tile.
        weights.append(Double(max(0, folderBytes.saturatingSubtract(largest.total))))
        let rects = Squarify.layout(weights, in: bounds)
        var tiles = zip(shown, rects).map { Tile(node: $0.node, restCount: 0, bytes: $0.bytes, rect: $1, children: []) }
        if restCount > 0 {
            tiles.append(Tile(node: -1, restCount: restCount, bytes: restBytes, rect: rects[shown.count], children: []))
        }
        return tiles
    }
}

/// A folder's `keeping` largest children (ties by position) in one pass, with the count and sum of all.
struct LargestChildren {
    private(set) var kept: [(bytes: Int64, node: Int32)] = []
    private(set) var count = 0
    private(set) var total: Int64 = 0

    init(of folder: Int32, in source: some TreemapSource, keeping limit: Int) {
        kept.reserveCapacity(limit + 1)
        for child in source.children(folder) {
            let bytes = max(0, source.bytes(child))
            count += 1
            total = total.saturatingAdd(bytes)
            guard kept.count < limit || bytes > kept[kept.count - 1].bytes else { continue }
            // Insert after every child of the same size already kept, so earlier children win ties.
            var low = 0
            var high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if kept[middle].bytes >= bytes { low = middle + 1 } else { high = middle }
            }
            kept.insert((bytes, child), at: low)
            if kept.count > limit { kept.removeLast() }
        }
    }
}
