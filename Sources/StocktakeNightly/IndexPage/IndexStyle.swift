import StocktakeRendering

/// What the index page adds to the report's style sheet; colours are constants here, never taken from input.
enum IndexStyle {
    static let barColour = "#93c5fd"
    static let latestColour = "#2563eb"
    static let failureColour = "#fdba74"
    static let latestFailureColour = "#c2410c"

    static let css: HTML =
        ReportStyle.css + "\n" + TreemapStyle.css + """
            .app-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 12px}
            #failures td.path{min-width:14ch}
            .app-head h2{overflow-wrap:anywhere;unicode-bidi:isolate}
            .app-name{overflow-wrap:break-word;unicode-bidi:isolate}
            .source{color:var(--muted);font-weight:400;font-size:.8em;overflow-wrap:anywhere;unicode-bidi:isolate}
            .card-value.change{font-size:18px;line-height:1.35;margin:6px 0 4px}
            .status{display:inline-block;font-size:12px;font-weight:600;padding:1px 8px;border-radius:999px;white-space:nowrap}
            .status.clean{background:#dcfce7;color:#166534}
            .status.failed{background:#fef3c7;color:#92400e}
            .trend-figure{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:0 8px;margin:8px 0 6px}
            .trend{display:block;width:100%;height:80px;border-radius:6px;background:var(--soft);grid-column:2}
            .trend-y{grid-row:1;display:flex;flex-direction:column;justify-content:space-between;text-align:right;\
            font-size:11px;color:var(--muted);height:80px}
            .trend-y-name{font-style:italic}
            .trend-x{grid-column:2;display:flex;justify-content:space-between;font-size:11px;color:var(--muted)}
            .grew{color:var(--warn)}
            .shrank{color:#15803d}
            .links{display:flex;flex-wrap:wrap;gap:8px 16px;margin:12px 0 0}
            .links a{color:var(--accent)}
            td.message{white-space:pre-wrap;overflow-wrap:anywhere}
            """
}
