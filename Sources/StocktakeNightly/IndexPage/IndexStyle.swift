import StocktakeRendering

/// What the index page adds to the report's style sheet; colours are constants here, never taken from input.
enum IndexStyle {
    static let barColour = "#93c5fd"
    static let latestColour = "#2563eb"
    static let failureColour = "#fdba74"
    static let latestFailureColour = "#c2410c"

    /// The report's and the treemap's style sheets, then the index page's own (`Style/index.css`).
    static let css: HTML = ReportStyle.css + "\n" + TreemapStyle.css + ReportStyle.file(PackageResources.index_css)
}
