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

    /// Right-aligned column headings, for columns of figures.
    static func figureHeadings(_ names: String...) -> HTML {
        names.map { "<th class=\"num\">\($0)</th>" as HTML }.joined()
    }

    static let sizeHeaders = figureHeadings("Old", "New", "Delta", "%")

    /// The collapsed tail of a list, as a note under its table.
    static func others<Element>(_ head: ListHead<Element>, inJSON: Bool = true) -> HTML {
        guard let line = head.othersLine else { return .empty }
        let more: HTML =
            inJSON ? " — the JSON format of the diff lists every row." : " — <code>--limit</code> shows more."
        return "<p class=\"note\">\(line)\(more)</p>\n"
    }

    static func empty(_ text: String) -> HTML { "<p class=\"muted\">\(text)</p>\n" }

    /// A path from the container, wrapping after separators.
    static func path(_ path: String) -> HTML { HTML.path(Array(path.utf8)) }

    static func pathCell(_ path: String) -> HTML { "<td class=\"path\">\(self.path(path))</td>" }
}
