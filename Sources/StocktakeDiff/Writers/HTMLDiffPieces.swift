import StocktakeModel
import StocktakeRendering

/// Table cells of the diff page. Growth and shrink differ in colour and always in sign.
enum HTMLDiffPieces {
    static func trend(_ delta: Int64) -> HTML { delta > 0 ? " grow" : delta < 0 ? " shrink" : .empty }

    /// "+1.2 MB" with the exact signed count in its title, in a `span` or, with `tag: "td"`, a table cell.
    static func delta(_ delta: Int64, tag: String = "span") -> HTML {
        let exact = (delta > 0 ? "+" : "") + HTMLFormatting.exactBytes(delta)
        let classes = (tag == "td" ? "num" : "nowrap") + trend(delta).markup
        return "<\(tag) class=\"\(classes)\" title=\"\(exact)\">\(ByteCount.signed(delta))</\(tag)>"
    }

    static func deltaCell(_ delta: Int64) -> HTML { self.delta(delta, tag: "td") }

    static func countDeltaCell(_ delta: Int) -> HTML {
        "<td class=\"num\(trend(Int64(delta)))\">\((delta > 0 ? "+" : "") + HTMLFormatting.grouped(delta))</td>"
    }

    static func percentCell(old: Int64, new: Int64) -> HTML {
        "<td class=\"num\(trend(new.saturatingSubtract(old)))\">\(Percent.change(old: old, new: new))</td>"
    }

    /// Old, new, delta and % of allocated bytes.
    static func sizeCells(_ change: SizeChange) -> HTML {
        let (old, new) = (change.oldOrZero.allocatedBytes, change.newOrZero.allocatedBytes)
        return HTMLPieces.sizeCell(old) + HTMLPieces.sizeCell(new) + deltaCell(change.allocatedDelta)
            + percentCell(old: old, new: new)
    }

    static let sizeHeaders: HTML =
        "<th class=\"num\">Old</th><th class=\"num\">New</th><th class=\"num\">Delta</th><th class=\"num\">%</th>"

    /// The collapsed tail of a list, as a note under its table.
    static func others(_ count: Int, _ delta: Int64, inJSON: Bool = true) -> HTML {
        guard count > 0 else { return .empty }
        let more: HTML =
            inJSON ? " — the JSON format of the diff lists every row." : " — <code>--limit</code> shows more."
        return "<p class=\"note\">\(DiffSigned.othersLine(count: count, allocatedDelta: delta))\(more)</p>\n"
    }

    static func empty(_ text: String) -> HTML { "<p class=\"muted\">\(text)</p>\n" }

    /// A path from the container, wrapping after separators.
    static func path(_ path: String) -> HTML { HTML.path(Array(path.utf8)) }

    static func locationTag(_ location: Location) -> HTML {
        "\(HTMLPieces.swatch(ReportPalette.colour(location)))\(location.title)"
    }
}
