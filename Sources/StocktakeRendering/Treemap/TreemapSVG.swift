import StocktakeModel

/// How one node is drawn: CSS classes (constants of the page's own style sheet), the figure its label and title
/// show (its size unless told), and lines of text its title adds after the path and the figure.
public struct TreemapLook: Sendable {
    public let classes: String
    public let details: [String]
    /// Striped over its colour (the report: excluded from backup by the app).
    public let hatched: Bool
    public let figure: String?

    public init(classes: String, details: [String] = [], hatched: Bool = false, figure: String? = nil) {
        (self.classes, self.details, self.hatched, self.figure) = (classes, details, hatched, figure)
    }
}

/// Writes a `TreemapLayout` as inline SVG, one picture per view. Tiles are nested `<svg>` elements placed in
/// percentages of their parent, so the picture scales with the page while labels keep their size and are clipped
/// to their tile. Opening a folder needs no script: every view is an element with an id, a folder's tile links to
/// its view, and the style sheet shows the view the address targets (`:target`), or the first when none is; the
/// breadcrumb links back up. A folder without a picture of its own opens as the list of its largest items, so no
/// folder's tile leads back to the picture it is in. Every tile is a focusable link, so a tap or Tab reaches it.
public struct TreemapSVG<Source: TreemapSource> {
    public let layout: TreemapLayout
    public let source: Source
    /// Ids are `<prefix>-<view number>`, unique on the page.
    public let idPrefix: String
    /// What the root folder is called ("Container root").
    public let rootName: String
    /// The whole the title's share is of ("of the container").
    public let shareOf: String
    public let look: (Int32) -> TreemapLook

    public init(
        layout: TreemapLayout, source: Source, idPrefix: String, rootName: String, shareOf: String,
        look: @escaping (Int32) -> TreemapLook
    ) {
        (self.layout, self.source, self.idPrefix, self.rootName) = (layout, source, idPrefix, rootName)
        (self.shareOf, self.look) = (shareOf, look)
    }

    /// Labels are drawn in tiles at least this large (frame units); the title always tells.
    static var labelWidth: Double { 40 }
    static var labelHeight: Double { 15 }
    /// Path components and labels are shortened to this many characters (hostile names can be 4 KB).
    static var nameLimit: Int { 80 }
    /// The title's path shows at most this many trailing components.
    static var pathComponents: Int { 8 }

    /// A folder's list shows at most this many of its items.
    static var listRows: Int { 8 }

    public func render(label: String) -> HTML {
        var html: HTML = "<div class=\"tm\">\n"
        var lists: [Int32: Int] = [:]
        for (number, view) in layout.views.enumerated() {
            html += "<div class=\"tm-view\" id=\"\(viewID(number))\">\n"
            html += breadcrumb(view.folder)
            html +=
                "<div class=\"tm-box\"\(boxStyle)><svg class=\"tm-svg\" aria-label=\"\(label): \(plainName(view.folder))\">\n"
            for tile in view.tiles { html += self.tile(tile, in: layout.frame, opens: nil, lists: &lists) }
            html += "</svg></div>\n</div>\n"
        }
        for (folder, number) in lists.sorted(by: { $0.value < $1.value }) { html += list(folder, number: number) }
        return html + "</div>\n"
    }

    private func viewID(_ number: Int) -> String { "\(idPrefix)-\(number)" }
    /// Lists are numbered in the order their folders are drawn, so ids do not depend on how the tree was walked.
    private func listID(_ number: Int) -> String { "\(idPrefix)-l\(number)" }

    /// The box keeps the frame's proportions (the style sheet's default is the standard frame's 8:5).
    private var boxStyle: HTML {
        guard layout.frame.width > 0, layout.frame.height / layout.frame.width != 0.625 else { return .empty }
        return " style=\"padding-top:\(Self.percent(layout.frame.height, of: layout.frame.width))%\""
    }

    /// One tile and, for a folder, its children. A folder's tile opens its picture, or its list when it has none
    /// (numbered in `lists`); anything else opens `opens`, what shows it larger, or only takes focus when nothing does.
    private func tile(_ tile: TreemapLayout.Tile, in parent: LayoutRect, opens: String?, lists: inout [Int32: Int])
        -> HTML
    {
        let rect = tile.rect
        guard rect.width > 0, rect.height > 0 else { return .empty }
        let folder = !tile.isRest && source.isFolder(tile.node)
        var target = opens
        if folder, let view = layout.viewOfFolder[tile.node] {
            target = viewID(view)
        } else if folder {
            if lists[tile.node] == nil { lists[tile.node] = lists.count }
            target = listID(lists[tile.node]!)
        }
        let look = tile.isRest ? TreemapLook(classes: "tm-rest") : self.look(tile.node)
        let figure = look.figure ?? ByteCount.format(tile.bytes)
        let classes = look.classes + (folder ? " tm-d" : "") + (tile.children.isEmpty ? "" : " tm-f")
        var html: HTML = "<svg x=\"\(Self.percent(rect.x - parent.x, of: parent.width))%\" "
        html +=
            "y=\"\(Self.percent(rect.y - parent.y, of: parent.height))%\" width=\"\(Self.percent(rect.width, of: parent.width))%\" "
        html += "height=\"\(Self.percent(rect.height, of: parent.height))%\" class=\"\(classes)\">"
        html += target.map { "<a href=\"#\($0)\">" } ?? "<a tabindex=\"0\">"
        html += "<rect width=\"100%\" height=\"100%\"><title>\(title(tile, figure: figure, look: look))</title></rect>"
        if look.hatched { html += "<rect class=\"tm-h\" width=\"100%\" height=\"100%\"></rect>" }
        html += label(tile, figure: figure) + "</a>"
        for child in tile.children { html += "\n" + self.tile(child, in: rect, opens: target, lists: &lists) }
        return html + "</svg>\n"
    }

    /// The name, and the figure beside a folder's name or under a file's when the tile is tall enough; the tile's
    /// `<svg>` clips both to it at any width.
    private func label(_ tile: TreemapLayout.Tile, figure: String) -> HTML {
        let rect = tile.rect
        guard rect.width >= Self.labelWidth, rect.height >= Self.labelHeight else { return .empty }
        let name = tile.isRest ? HTML.text(Self.smaller(tile.restCount)) : plainName(tile.node)
        guard tile.children.isEmpty else {
            return "<text x=\"4\" y=\"13\">\(name) <tspan class=\"tm-s\">\(figure)</tspan></text>"
        }
        var html: HTML = "<text x=\"4\" y=\"13\">\(name)</text>"
        if rect.height >= 2 * Self.labelHeight + 2 { html += "<text x=\"4\" y=\"26\" class=\"tm-s\">\(figure)</text>" }
        return html
    }

    private static func smaller(_ count: Int) -> String {
        "\(HTMLFormatting.grouped(count)) smaller \(Plural.noun(count, "item"))"
    }

    /// A folder drawn without a picture of its own: its largest items, each with its figure.
    private func list(_ folder: Int32, number: Int) -> HTML {
        let largest = LargestChildren(of: folder, in: source, keeping: Self.listRows)
        var html: HTML =
            "<div class=\"tm-view\" id=\"\(listID(number))\">\n" + breadcrumb(folder) + "<ol class=\"tm-list\">"
        for child in largest.kept {
            let figure = look(child.node).figure ?? ByteCount.format(child.bytes)
            html += "<li><span>\(plainName(child.node))\(source.isFolder(child.node) ? "/" : "")</span> \(figure)</li>"
        }
        let rest = largest.count - largest.kept.count
        if rest > 0 { html += "<li class=\"muted\">\(Self.smaller(rest))</li>" }
        return html + "</ol>\n</div>\n"
    }

    /// Path, figure and share, then what the look adds, one per line.
    private func title(_ tile: TreemapLayout.Tile, figure: String, look: TreemapLook) -> HTML {
        let size = "\(figure) · \(Percent.share(tile.bytes, of: layout.totalBytes)) \(shareOf)"
        guard !tile.isRest else { return HTML.text(Self.smaller(tile.restCount) + "\n" + size) }
        return path(tile.node) + HTML.text(([size] + look.details).map { "\n" + $0 }.joined())
    }

    /// The node's path from the root, its last `pathComponents` components, each shortened.
    private func path(_ node: Int32) -> HTML {
        guard node != source.root else { return HTML.text(rootName) }
        var components: [HTML] = []
        var current = node
        while current != source.root, current >= 0, components.count < Self.pathComponents {
            components.append(plainName(current))
            current = source.parent(current)
        }
        let prefix: HTML = current == source.root || current < 0 ? .empty : "…/"
        return prefix + components.reversed().joined(separator: "/")
    }

    private func plainName(_ node: Int32) -> HTML {
        guard node != source.root else { return HTML.text(rootName) }
        let name = PathText.display(source.name(node))
        return HTML.visible(name.count > Self.nameLimit ? String(name.prefix(Self.nameLimit)) + "…" : name)
    }

    /// Root / … / the three folders above / this one: links to the views that exist, the current one in bold.
    private func breadcrumb(_ folder: Int32) -> HTML {
        var chain: [Int32] = []
        var current = folder
        while current >= 0 {
            chain.append(current)
            if current == source.root { break }
            current = source.parent(current)
        }
        chain.reverse()
        let crumb = { (node: Int32) -> HTML in
            if node == folder { return "<strong>\(plainName(node))</strong>" }
            if let view = layout.viewOfFolder[node] { return "<a href=\"#\(viewID(view))\">\(plainName(node))</a>" }
            return plainName(node)
        }
        var crumbs = chain.count > 6 ? [crumb(chain[0]), "…"] + chain.suffix(4).map(crumb) : chain.map(crumb)
        if crumbs.isEmpty { crumbs = [crumb(folder)] }
        return "<p class=\"tm-crumbs\">\(crumbs.joined(separator: " / "))</p>\n"
    }

    /// `part` as a percentage of `whole`, to 0.01 (0.12 px at 1,200 px), trailing zeros dropped.
    static func percent(_ part: Double, of whole: Double) -> String {
        guard whole > 0 else { return "0" }
        let hundredths = Int((part / whole * 10_000).rounded())
        let whole = hundredths / 100
        let fraction = abs(hundredths % 100)
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
