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
        var css = ReportStyle.file(PackageResources.treemap_css) + "\n"
        for (family, colour, _) in kinds { css += ".k-\(family){--c:\(colour)}\n" }
        for location in Location.allCases {
            css += ".\(locationClass(location)){--c:\(ReportPalette.colour(location))}\n"
        }
        return css
    }

    /// The pattern a hatched tile's overlay is filled with; once per page, before the first treemap.
    public static let definitions = ReportStyle.file(PackageResources.hatch_svg) + "\n"

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
