import StocktakeModel

/// How one node is drawn: CSS classes (constants of the page's own style sheet) and lines of text its title adds
/// after the path and the size.
public struct TreemapLook: Sendable {
    public let classes: String
    public let details: [String]
    /// Striped over its colour (the report: excluded from backup by the app).
    public let hatched: Bool

    public init(classes: String, details: [String] = [], hatched: Bool = false) {
        self.classes = classes
        self.details = details
        self.hatched = hatched
    }
}

/// Writes a `TreemapLayout` as inline SVG, one picture per view. Tiles are nested `<svg>` elements placed in
/// percentages of their parent, so the picture scales with the page while labels keep their size and are clipped
/// to their tile. Opening a folder needs no script: every view is an element with an id, a folder's tile links to
/// its view, and the style sheet shows the view the address targets (`:target`), or the first when none is; the
/// breadcrumb links back up. Links are focusable and open with Enter.
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
        self.layout = layout
        self.source = source
        self.idPrefix = idPrefix
        self.rootName = rootName
        self.shareOf = shareOf
        self.look = look
    }

    /// Labels are drawn in tiles at least this large (frame units); the title always tells.
    static var labelWidth: Double { 40 }
    static var labelHeight: Double { 15 }
    /// Path components and labels are shortened to this many characters (hostile names can be 4 KB).
    static var nameLimit: Int { 80 }
    /// The title's path shows at most this many trailing components.
    static var pathComponents: Int { 8 }

    public func render(label: String) -> HTML {
        var html: HTML = "<div class=\"tm\">\n"
        for (number, view) in layout.views.enumerated() {
            html += "<div class=\"tm-view\" id=\"\(viewID(number))\">\n"
            html += breadcrumb(view.folder)
            html +=
                "<div class=\"tm-box\"\(boxStyle)><svg class=\"tm-svg\" aria-label=\"\(label): \(plainName(view.folder))\">\n"
            for tile in view.tiles { html += self.tile(tile, in: layout.frame, enclosingView: number) }
            html += "</svg></div>\n</div>\n"
        }
        return html + "</div>\n"
    }

    private func viewID(_ number: Int) -> String { "\(idPrefix)-\(number)" }

    /// The box keeps the frame's proportions (the style sheet's default is the standard frame's 8:5).
    private var boxStyle: HTML {
        guard layout.frame.width > 0, layout.frame.height / layout.frame.width != 0.625 else { return .empty }
        return " style=\"padding-top:\(Self.percent(layout.frame.height, of: layout.frame.width))%\""
    }

    /// One tile and, for a folder, its children. `enclosingView` is where a click lands when the tile has no view
    /// of its own (the view showing it larger).
    private func tile(_ tile: TreemapLayout.Tile, in parent: LayoutRect, enclosingView: Int?) -> HTML {
        let rect = tile.rect
        guard rect.width > 0, rect.height > 0 else { return .empty }
        let ownView = tile.isRest ? nil : layout.viewOfFolder[tile.node]
        let target = ownView ?? enclosingView
        let look = tile.isRest ? TreemapLook(classes: "tm-rest") : self.look(tile.node)
        let classes = look.classes + (tile.children.isEmpty ? "" : " tm-f")
        var html: HTML = "<svg x=\"\(Self.percent(rect.x - parent.x, of: parent.width))%\" "
        html +=
            "y=\"\(Self.percent(rect.y - parent.y, of: parent.height))%\" width=\"\(Self.percent(rect.width, of: parent.width))%\" "
        html += "height=\"\(Self.percent(rect.height, of: parent.height))%\" class=\"\(classes)\">"
        var face: HTML = "<rect width=\"100%\" height=\"100%\"><title>\(title(tile, look: look))</title></rect>"
        if look.hatched { face += "<rect class=\"tm-h\" width=\"100%\" height=\"100%\"></rect>" }
        face += label(tile)
        if let target {
            html += "<a href=\"#\(viewID(target))\">\(face)</a>"
        } else {
            html += face
        }
        for child in tile.children {
            html += "\n" + self.tile(child, in: rect, enclosingView: ownView ?? enclosingView)
        }
        return html + "</svg>\n"
    }

    private func label(_ tile: TreemapLayout.Tile) -> HTML {
        let rect = tile.rect
        guard rect.width >= Self.labelWidth, rect.height >= Self.labelHeight else { return .empty }
        let name = tile.isRest ? HTML.text(restName(tile)) : plainName(tile.node)
        var html: HTML = "<text x=\"4\" y=\"13\">\(name)</text>"
        if tile.children.isEmpty, rect.height >= 2 * Self.labelHeight + 2 {
            html += "<text x=\"4\" y=\"26\" class=\"tm-s\">\(ByteCount.format(tile.bytes))</text>"
        }
        return html
    }

    private func restName(_ tile: TreemapLayout.Tile) -> String {
        "\(HTMLFormatting.grouped(tile.restCount)) smaller \(Plural.noun(tile.restCount, "item"))"
    }

    /// Path, size and share, then what the look adds, one per line.
    private func title(_ tile: TreemapLayout.Tile, look: TreemapLook) -> HTML {
        let size = "\(ByteCount.format(tile.bytes)) · \(Percent.share(tile.bytes, of: layout.totalBytes)) \(shareOf)"
        guard !tile.isRest else { return HTML.text(restName(tile) + "\n" + size) }
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
