import StocktakeModel
import StocktakeRendering

/// "Where it grew": the newer version as a treemap (area by its size), each tile coloured by what happened to it
/// (grew, shrank, new, unchanged) with the colour's strength by the bytes changed, and what was removed drawn apart
/// by its old size. Tiles holding a place a gate tripped on are outlined.
struct HTMLDiffTreemap {
    let tree: GrowthTree
    let gates: [DiffGateResult]

    func render() -> HTML {
        var html = HTMLPieces.sectionStart(
            id: "map", title: "Where it grew",
            lead:
                "The newer version, each tile's area its size on disk, coloured by how it changed and stronger the more bytes "
                + "changed; what was removed is drawn apart by its old size. Select a folder to open it.")
        let layout = TreemapLayout(tree)
        let marks = GateMarks(tree: tree, gates: gates)
        let strength = Strength(tree: tree, layout: layout)
        let fileDeltas = Self.fileDeltas(tree)
        if layout.totalBytes > 0 {
            html += TreemapStyle.definitions
            html += TreemapSVG(
                layout: layout, source: tree, idPrefix: "map", rootName: "Container root",
                shareOf: "of the newer version",
                look: { look($0, marks: marks, strength: strength, fileDelta: fileDeltas[Int($0)]) }
            ).render(label: "Treemap of the newer version's sizes")
        } else {
            html += "<p class=\"muted\">Nothing in the newer version occupies space on disk.</p>\n"
        }
        html += legend
        let removed = RemovedItems(tree: tree)
        if removed.bytes(removed.root) > 0 {
            let frame = LayoutRect(x: 0, y: 0, width: 1200, height: 300)
            html += TreemapSVG(
                layout: TreemapLayout(removed, frame: frame), source: removed, idPrefix: "gone",
                rootName: "Removed, by old size",
                shareOf: "of what was removed",
                look: { node in
                    TreemapLook(
                        classes: "g-gone", details: [tree.locations[Int(node)].title, "removed in the newer version"])
                }
            ).render(label: "Treemap of what was removed, by its old size")
        }
        return html + HTMLPieces.sectionEnd
    }

    /// For each folder, how much the files beneath it changed (folders' own blocks left out): the locations
    /// table counts files only, so a folder whose files did not change must not read "shrank" beside its "0 bytes".
    /// Nodes come parents first, so one backward pass sums every subtree.
    static func fileDeltas(_ tree: GrowthTree) -> [Int64] {
        var deltas = [Int64](repeating: 0, count: tree.count)
        for node in stride(from: tree.count - 1, to: 0, by: -1) {
            let own =
                tree.isFolder(Int32(node))
                ? deltas[node] : tree.newBytes[node].saturatingSubtract(tree.oldBytes[node])
            deltas[node] = own
            let parent = Int(tree.parent(Int32(node)))
            if parent >= 0 { deltas[parent] = deltas[parent].saturatingAdd(own) }
        }
        return deltas
    }

    private func look(_ node: Int32, marks: GateMarks, strength: Strength, fileDelta: Int64) -> TreemapLook {
        let before = tree.oldBytes[Int(node)]
        let after = tree.newBytes[Int(node)]
        let delta = after.saturatingSubtract(before)
        var classes: [String]
        var change: String
        switch tree.presence(node) {
        case .both where delta != 0 && tree.isFolder(node) && fileDelta == 0:
            // Only the folders' own blocks changed: the files, and so the locations table, are unchanged.
            classes = ["g-same"]
            change =
                "files unchanged (folder blocks \(delta > 0 ? "+" : "-")\(ByteCount.format(Int64(clamping: delta.magnitude))))"
        case .onlyNew:
            classes = ["g-new"]
            change = "new in the newer version"
        case .onlyOld:
            classes = ["g-gone"]
            change = "removed in the newer version"
        case .both where delta > 0:
            classes = ["g-grew"]
            change = "grew \(ByteCount.format(delta)) from \(ByteCount.format(before))"
        case .both where delta < 0:
            classes = ["g-shrank"]
            change = "shrank \(ByteCount.format(Int64(clamping: delta.magnitude))) from \(ByteCount.format(before))"
        case .both:
            classes = ["g-same"]
            change = "unchanged"
        }
        if delta != 0 && classes != ["g-same"] { classes.append("i\(strength.level(delta))") }
        var details = [tree.locations[Int(node)].title + " · " + change]
        if marks.contains(node) {
            classes.append("gate")
            details.append("a tripped gate is about this place")
        }
        return TreemapLook(classes: classes.joined(separator: " "), details: details)
    }

    private var legend: HTML {
        let key = { (classes: String, text: String) -> HTML in
            "<span><span class=\"tm-key \(classes)\"></span>\(text)</span>"
        }
        return "<p class=\"tm-legend\">" + key("g-grew i4", "grew") + key("g-shrank i4", "shrank")
            + key("g-new i4", "new")
            + key("g-same", "unchanged") + key("g-grew i1", "paler: fewer bytes changed")
            + key("g-gone", "removed (drawn apart)")
            + key("gate", "outlined: a tripped gate") + key("tm-f", "a folder, its name on top") + "</p>\n"
    }

    /// What the diff adds to the treemap's style sheet: a colour per change, four strengths, the gate outline.
    static let css: HTML = """
        .g-grew{--c:\(ReportPalette.growth)}
        .g-shrank{--c:\(ReportPalette.shrink)}
        .g-new{--c:#a21caf}
        .g-same{--c:#cbd5e1}
        .g-gone{--c:#64748b}
        .i1>rect,.i1>a>rect{fill:color-mix(in srgb,var(--c) 30%,#fff)}
        .i2>rect,.i2>a>rect{fill:color-mix(in srgb,var(--c) 55%,#fff)}
        .i3>rect,.i3>a>rect{fill:color-mix(in srgb,var(--c) 78%,#fff)}
        .tm-f.i1>rect,.tm-f.i1>a>rect,.tm-f.i2>rect,.tm-f.i2>a>rect,.tm-f.i3>rect,.tm-f.i3>a>rect{fill:color-mix(in srgb,var(--c) 20%,#fff)}
        .gate>rect,.gate>a>rect{stroke:#111827;stroke-width:3;stroke-dasharray:6 3}
        .tm-key.g-grew,.tm-key.g-shrank,.tm-key.g-new,.tm-key.g-same,.tm-key.g-gone{background:var(--c)}
        .tm-key.i1{background:color-mix(in srgb,var(--c) 30%,#fff)}
        .tm-key.gate{background:none;border:2px dashed #111827}
        """
}

/// Four strengths of colour by bytes changed, against the largest change drawn (quartiles of the largest).
private struct Strength {
    let largest: Int64

    init(tree: GrowthTree, layout: TreemapLayout) {
        var largest: Int64 = 1
        for view in layout.views {
            for tile in view.tiles.flatMap({ [$0] + $0.children }) where !tile.isRest && tile.node != tree.root {
                let change = tree.newBytes[Int(tile.node)].saturatingSubtract(tree.oldBytes[Int(tile.node)]).magnitude
                largest = max(largest, Int64(clamping: change))
            }
        }
        self.largest = largest
    }

    /// 1 (a sliver of the largest change) to 4 (at least three quarters of it).
    func level(_ delta: Int64) -> Int {
        let share = Double(delta.magnitude) / Double(largest)
        return share >= 0.75 ? 4 : share >= 0.4 ? 3 : share >= 0.1 ? 2 : 1
    }
}

/// The nodes a tripped gate is about, and every folder above them: a location's top folders (where the location
/// starts), or the paths of new findings.
private struct GateMarks {
    private var marked: Set<Int32> = []

    init(tree: GrowthTree, gates: [DiffGateResult]) {
        let places = gates.filter(\.tripped).flatMap(\.places)
        guard !places.isEmpty else { return }
        var starts: [Int32] = []
        let locations = Set(places.compactMap { if case .location(let location) = $0 { location } else { nil } })
        if !locations.isEmpty {
            for node in 1..<Int32(tree.count) where locations.contains(tree.locations[Int(node)]) {
                let parent = tree.parent(node)
                if parent == tree.root || tree.locations[Int(parent)] != tree.locations[Int(node)] {
                    starts.append(node)
                }
            }
        }
        for case .path(let path) in places { tree.node(atPath: Array(path.utf8)).map { starts.append($0) } }
        for start in starts {
            var current = start
            while current > tree.root, marked.insert(current).inserted { current = tree.parent(current) }
        }
    }

    func contains(_ node: Int32) -> Bool { marked.contains(node) }
}

/// What the newer version no longer has, as a flat tree for the "Removed" picture: every removed item whose folder
/// is still there, by its old size (a removed folder counts once, with everything it held).
private struct RemovedItems: TreemapSource {
    let tree: GrowthTree
    private let items: [Int32]
    private let total: Int64

    init(tree: GrowthTree) {
        self.tree = tree
        var items: [Int32] = []
        var total: Int64 = 0
        for node in 1..<Int32(tree.count)
        where tree.presence(node) == .onlyOld && tree.presence(tree.parent(node)) != .onlyOld {
            items.append(node)
            total = total.saturatingAdd(tree.oldBytes[Int(node)])
        }
        self.items = items
        self.total = total
    }

    var root: Int32 { tree.root }
    func parent(_ node: Int32) -> Int32 { tree.parent(node) }
    func children(_ node: Int32) -> ArraySlice<Int32> { node == root ? items[...] : [] }
    func name(_ node: Int32) -> ArraySlice<UInt8> { tree.name(node) }
    func isFolder(_ node: Int32) -> Bool { tree.isFolder(node) }
    func bytes(_ node: Int32) -> Int64 { node == root ? total : tree.oldBytes[Int(node)] }
}
