import StocktakeModel
import StocktakeRendering

/// "What changed": the bytes that changed as a treemap, what grew or is new on one side and what shrank or was
/// removed on the other, at one scale: a tile's area is its files' change (folders' own blocks left out, as the
/// locations table counts files only). A change under 0.1% of the larger version is drawn neutral. Tiles holding a
/// place a gate tripped on are outlined.
struct HTMLDiffTreemap {
    let tree: GrowthTree
    let gates: [DiffGateResult]

    func render() -> HTML {
        var html = HTMLPieces.sectionStart(
            id: "map", title: "What changed",
            lead:
                "Each tile's area is the bytes it changed: what grew or is new on one side, what shrank or was removed on "
                + "the other, at one scale. Select a folder to open it.")
        let changes = ChangeTree(tree)
        let layout = TreemapLayout(changes)
        let marks = GateMarks(tree: tree, gates: gates)
        let neutral = max(tree.oldBytes[0], tree.newBytes[0]) / 1000
        if layout.totalBytes > 0 {
            html += TreemapStyle.definitions
            html += TreemapSVG(
                layout: layout, source: changes, idPrefix: "map", rootName: "All changes",
                shareOf: "of the bytes changed", look: { look($0, changes: changes, marks: marks, neutral: neutral) }
            ).render(label: "Treemap of the bytes changed")
        } else {
            html += "<p class=\"muted\">No file changed size.</p>\n"
        }
        return html + legend + HTMLPieces.sectionEnd
    }

    private func look(_ node: Int32, changes: ChangeTree, marks: GateMarks, neutral: Int64) -> TreemapLook {
        let (item, grew) = changes.item(node)
        let change = changes.bytes(node)
        let before = ByteCount.format(tree.oldBytes[Int(item)])
        let after = ByteCount.format(tree.newBytes[Int(item)])
        let (tone, what) =
            switch tree.presence(item) {
            case _ where change < neutral: ("g-same", "under 0.1% of the total")
            case .onlyNew: ("g-new", "new, \(after)")
            case .onlyOld: ("g-gone", "removed, was \(before)")
            case .both: (grew ? "g-grew" : "g-shrank", "was \(before), now \(after)")
            }
        var details = [tree.locations[Int(item)].title + " · " + what]
        if item == tree.root { details = [grew ? "what grew or is new" : "what shrank or was removed"] }
        let gate = marks.contains(item)
        if gate { details.append("a tripped gate is about this place") }
        let figure = (grew ? "+" : "-") + ByteCount.format(change)
        return TreemapLook(classes: gate ? tone + " gate" : tone, details: details, figure: figure)
    }

    private var legend: HTML {
        let key = { (classes: String, text: String) -> HTML in
            "<span><span class=\"tm-key \(classes)\"></span>\(text)</span>"
        }
        return "<p class=\"tm-legend\">" + key("g-grew", "grew") + key("g-new", "new") + key("g-shrank", "shrank")
            + key("g-gone", "removed") + key("g-same", "changed under 0.1% of the total")
            + key("gate", "outlined: a tripped gate") + key("tm-f", "a folder, its name and change on top") + "</p>\n"
    }

    /// What the diff adds to the treemap's style sheet: a colour per change (growth and shrink the palette's, the
    /// rest in `Style/diff-treemap.css`) and the gate outline.
    static let css: HTML =
        ".g-grew{--c:\(ReportPalette.growth)}\n.g-shrank{--c:\(ReportPalette.shrink)}\n"
        + ReportStyle.file(PackageResources.diff_treemap_css)
}

/// The growth tree twice over, as the map draws it: node 0 the root holding two sides, and node `2 * n + 2 + side`
/// the tree's node `n` on the side of what its files gained (0) or lost (1), weighed by those bytes. Only nodes
/// that changed on a side are its children there.
struct ChangeTree: TreemapSource {
    let tree: GrowthTree
    /// Per tree node, the bytes its files gained, and lost.
    let gained: [Int64]
    let lost: [Int64]
    private var childStarts: [Int] = [0]
    private var childList: [Int32] = []
    private static let sides: [[UInt8]] = [Array("Grew or new".utf8), Array("Shrank or removed".utf8)]

    init(_ tree: GrowthTree) {
        self.tree = tree
        var gained = [Int64](repeating: 0, count: tree.count)
        var lost = gained
        // Nodes come parents first, so one backward pass sums every subtree.
        for node in stride(from: tree.count - 1, to: 0, by: -1) {
            if !tree.isFolder(Int32(node)) {
                let delta = tree.newBytes[node].saturatingSubtract(tree.oldBytes[node])
                (gained[node], lost[node]) = (max(0, delta), Int64(clamping: min(0, delta).magnitude))
            }
            let parent = Int(tree.parent(Int32(node)))
            gained[parent] = gained[parent].saturatingAdd(gained[node])
            lost[parent] = lost[parent].saturatingAdd(lost[node])
        }
        (self.gained, self.lost) = (gained, lost)
        for node in Int32(0)..<Int32(2 * tree.count + 2) {
            let kids =
                node == 0 ? [2, 3] : node == 1 ? [] : tree.children(item(node).node).map { 2 * $0 + (node & 1) + 2 }
            childList += kids.filter { bytes($0) > 0 }
            childStarts.append(childList.count)
        }
    }

    /// The tree's node a map node stands for, and whether it is on the side of what grew.
    func item(_ node: Int32) -> (node: Int32, grew: Bool) { ((node - 2) / 2, node & 1 == 0) }

    var root: Int32 { 0 }
    func parent(_ node: Int32) -> Int32 {
        node < 4 ? (node < 2 ? -1 : 0) : 2 * tree.parent(item(node).node) + (node & 1) + 2
    }
    func children(_ node: Int32) -> ArraySlice<Int32> { childList[childStarts[Int(node)]..<childStarts[Int(node) + 1]] }
    func name(_ node: Int32) -> ArraySlice<UInt8> {
        node < 4 ? Self.sides[Int(node & 1)][...] : tree.name(item(node).node)
    }
    func isFolder(_ node: Int32) -> Bool { node < 4 || tree.isFolder(item(node).node) }
    func bytes(_ node: Int32) -> Int64 {
        guard node >= 2 else { return node == 0 ? gained[0].saturatingAdd(lost[0]) : 0 }
        let (item, grew) = item(node)
        return grew ? gained[Int(item)] : lost[Int(item)]
    }
}

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
