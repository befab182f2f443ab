import StocktakeModel
import StocktakeRendering

/// The diff as one self-contained, fully static page: the report's style sheet and escaping, inline SVG,
/// no script at all and no external URL. The output depends only on the diff, so it is reproducible.
struct HTMLDiffWriter {
    let diff: ReportDiff
    let gates: [DiffGateResult]
    let options: DiffRenderOptions

    var limit: Int { options.limit }
    typealias Pieces = HTMLDiffPieces

    /// No loads of any kind, no script; inline style only (the page's own CSS and bar widths).
    /// `base-uri` and `form-action` do not fall back to `default-src`.
    static let contentSecurityPolicy: HTML =
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'none'; base-uri 'none'; form-action 'none'"

    func render() -> String {
        var page = HTMLPieces.pageStart(
            title: "Stocktake diff: \(title)", contentSecurityPolicy: Self.contentSecurityPolicy,
            generator: options.tool.name + " " + options.tool.version,
            css: ReportStyle.css + "\n" + Self.css + "\n" + TreemapStyle.css + HTMLDiffTreemap.css)
        page += masthead()
        page += "<main class=\"wrap\">\n" + verdict() + summary()
        if let growth = diff.growth { page += HTMLDiffTreemap(tree: growth, gates: gates).render() }
        page += locations() + directories() + leftBehind() + files() + groupsAndBudgets() + findings() + "</main>\n"
        page +=
            "<footer class=\"wrap\">Compared by \(options.tool.name + " " + options.tool.version) · diff schema \(DiffWriter.jsonSchemaVersion) · sizes in decimal units "
        page +=
            "(a KB is a thousand bytes); hover a size for the exact byte count. The JSON format of the diff lists every file.</footer>\n"
        return PhoneTables.label(page + "</body>\n</html>\n").markup
    }

    /// "com.example.chat 1.4.0 → 1.5.0".
    private var title: HTML {
        let app = diff.new.bundleIdentifier ?? diff.old.bundleIdentifier ?? "unidentified app"
        return HTML.visible("\(app) \(diff.old.appVersion ?? "?") → \(diff.new.appVersion ?? "?")")
    }

    private func masthead() -> HTML {
        var html: HTML = "<header class=\"masthead\">\n<div class=\"wrap\">\n<p class=\"eyebrow\">Stocktake diff</p>\n"
        html += "<h1>\(title)</h1>\n"
        html += "<p class=\"meta\">\(visible: diff.old.generatedAt) → \(visible: diff.new.generatedAt)</p>\n"
        html += "<nav class=\"toc\" aria-label=\"Sections\">"
        // Every section in page order, and whether this page has it.
        let links: [(anchor: String, name: String, shown: Bool)] = [
            ("summary", "Summary", true), ("gates", "Gates", !gates.isEmpty), ("map", "Map", diff.growth != nil),
            ("locations", "Locations", true), ("directories", "Directories", true),
            ("left-behind", "Left behind (\(diff.files.leftBehind.count))", !diff.files.leftBehind.isEmpty),
            ("files", "Files", true), ("groups", "Groups and budgets", !diff.groups.isEmpty || !diff.budgets.isEmpty),
            ("findings", "Findings", true),
        ]
        for link in links where link.shown { html += "<a href=\"#\(link.anchor)\">\(link.name)</a>" }
        return html + "</nav>\n</div>\n</header>\n"
    }

    /// What the diff adds to the report's style sheet: growth and shrink (the palette's), then `Style/diff.css`: the
    /// risk frame, gate tags and the change chart.
    static let css: HTML =
        ".grow{color:\(ReportPalette.growth)}\n.shrink{color:\(ReportPalette.shrink)}\n"
        + ReportStyle.file(PackageResources.diff_css)
}

extension ReportPalette {
    /// Growth and shrink in the diff: orange and blue, which stay apart for the common colour-vision
    /// deficiencies; every figure also carries its sign, so colour is never the only cue.
    static let growth = "#c2410c"
    static let shrink = "#0369a1"
}
