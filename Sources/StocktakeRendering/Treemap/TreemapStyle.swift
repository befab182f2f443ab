import StocktakeModel

/// The treemap's style sheet, shared by the report, the diff and the nightly index, and the classes that colour a
/// tile by kind of content (so colour still tells files apart inside one location), by location (the index's map,
/// colours from `ReportPalette` to match the location bar), by backup state, and outline a finding.
public enum TreemapStyle {
    /// Views are hidden but the targeted one (or the first); a browser without `:has()` (before Safari 15.4) shows the
    /// first above the targeted one. `color-mix()` (Safari 16.2) falls back to the solid colour. Tiles are nested
    /// `<svg>`s whose first `<rect>` (inside the tile's link) is the tile's face. On a phone the picture is drawn
    /// taller than wide: tiles are placed in percentages, so areas stay in proportion while folders' name strips
    /// grow tall enough for their names.
    public static var css: HTML {
        var css: HTML = """
            .tm-defs{position:absolute;width:0;height:0;overflow:hidden}
            .tm-view{display:none;scroll-margin-top:8px}
            .tm-view:first-child,.tm-view:target{display:block}
            .tm:has(.tm-view:target)>.tm-view:first-child:not(:target){display:none}
            .tm-crumbs{margin:0 0 6px;font-size:13px;overflow-wrap:anywhere;unicode-bidi:isolate}
            .tm-crumbs a{color:var(--accent)}
            .tm-box{position:relative;padding-top:62.5%;border-radius:6px;overflow:hidden;background:var(--soft)}
            .tm-svg{position:absolute;top:0;left:0;width:100%;height:100%;font-size:11px}
            .tm-svg svg{overflow:hidden}
            .tm-svg rect{fill:var(--c,#94a3b8);stroke:#fff;stroke-width:1}
            .tm-svg rect.tm-h{fill:url(#tm-hatch);stroke:none;pointer-events:none}
            .tm-svg text{fill:#fff;stroke:rgba(17,24,39,.6);stroke-width:2.5px;paint-order:stroke;stroke-linejoin:round;\
            pointer-events:none}
            .tm-svg .tm-s{font-size:10px}
            @media (max-width:600px){.tm-box{padding-top:150%}}
            .tm-svg a{cursor:pointer}
            .tm-svg a:hover>rect{fill-opacity:.8}
            .tm-svg a:focus{outline:none}
            .tm-svg a:focus-visible>rect{stroke:var(--ink);stroke-width:4}
            .tm-rest{--c:#cbd5e1}
            .tm-d{--c:#475569}
            .tm-list{margin:0;padding-left:24px;columns:2 260px;font-variant-numeric:tabular-nums}
            .tm-list span{overflow-wrap:anywhere;unicode-bidi:isolate;margin-right:6px}
            .tm-cap{margin:6px 0 0;min-height:1.5em;font-size:13px;overflow-wrap:anywhere;unicode-bidi:isolate}
            .b-x>rect,.b-x>a>rect{fill:color-mix(in srgb,var(--c) 45%,#fff)}
            .tm-f>rect,.tm-f>a>rect{fill:color-mix(in srgb,var(--c) 20%,#fff);stroke:#64748b}
            .b-x>text,.b-x>a>text{fill:var(--ink);stroke:rgba(255,255,255,.7)}
            .tm-f>text,.tm-f>a>text{fill:var(--ink);stroke:none;font-weight:600}
            .sv-error>rect,.sv-error>a>rect{stroke:#b91c1c;stroke-width:3}
            .sv-warning>rect,.sv-warning>a>rect{stroke:#d97706;stroke-width:3}
            .tm-legend{display:flex;flex-wrap:wrap;gap:4px 16px;color:var(--muted);font-size:12.5px;margin:8px 0 0}
            .tm-key{display:inline-block;width:14px;height:11px;border-radius:2px;margin-right:6px;vertical-align:-1px;\
            background:#94a3b8}
            .tm-key.b-x{opacity:.45}
            .tm-key.b-a{background:repeating-linear-gradient(45deg,#94a3b8 0 3px,#e2e8f0 3px 5px)}
            .tm-key.tm-d{background:#475569}
            .tm-key.tm-f{background:#f1f5f9;border:1px solid #64748b}
            .tm-key.sv-error{background:none;border:3px solid #b91c1c}
            .tm-key.sv-warning{background:none;border:3px solid #d97706}

            """
        for (family, colour, _) in kinds { css += ".k-\(family){--c:\(colour)}\n" }
        for location in Location.allCases {
            css += ".\(locationClass(location)){--c:\(ReportPalette.colour(location))}\n"
        }
        return css
    }

    /// The pattern a hatched tile's overlay is filled with; once per page, before the first treemap.
    public static let definitions: HTML = """
        <svg width="0" height="0" class="tm-defs" aria-hidden="true" focusable="false"><defs><pattern id="tm-hatch" \
        width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="2.5" height="6" \
        fill="#fff" fill-opacity=".6"></rect></pattern></defs></svg>

        """

    /// `c-documents`, `c-caches`, …: a tile's fill.
    public static func locationClass(_ location: Location) -> String { "c-" + location.rawValue }

    /// The families of content (`ContentKind.family`) with a colour of their own and their legend's words; the
    /// rest are drawn grey, as "other".
    public static let kinds: [(family: String, colour: String, title: String)] = [
        ("database", "#2563eb", "databases"), ("image", "#16a34a", "images"), ("media", "#9333ea", "video and audio"),
        ("propertyList", "#d97706", "property lists"), ("text", "#0891b2", "text and JSON"),
        ("document", "#db2777", "PDFs"), ("archive", "#a16207", "archives"), ("cookies", "#be123c", "cookies"),
    ]

    /// `k-database`, `k-image`, …: a file's fill by its kind of content.
    public static func kindClass(_ kind: ContentKind) -> String { "k-" + kind.family }

    /// `b-x`, faded: iOS never backs it up. The app's own exclusion is hatched instead (`TreemapLook.hatched`).
    public static func backupClass(_ state: BackupState) -> String? { state == .excludedBySystem ? "b-x" : nil }

    /// An outline for the most severe finding at or beneath a tile; notes are not outlined.
    public static func severityClass(_ severity: Severity?) -> String? {
        severity.flatMap { $0 >= .warning ? "sv-" + $0.rawValue : nil }
    }
}
