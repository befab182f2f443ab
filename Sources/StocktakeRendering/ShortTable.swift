import StocktakeModel

/// A long table that starts short: the first rows in the table, the rest in a second table with the same
/// head behind a `<details>` disclosure (no script needed), so a page ends where a reader stops reading.
public enum ShortTable {
    /// Rows shown before the disclosure.
    public static let rowsShown = 20

    /// `open` is the table's start tag (`<table data-sortable>`), `head` its `<thead>…</thead>`, `rows` whole
    /// `<tr>…</tr>`; `noun` names a row in the disclosure ("file": "Show 170 more files").
    public static func render(open: HTML, head: HTML, rows: [HTML], noun: String, shown: Int = rowsShown) -> HTML {
        var html: HTML = "<div class=\"scroll\">\(open)\n\(head)\n<tbody>\n"
        html += rows.prefix(shown).joined() + "</tbody>\n</table></div>\n"
        guard rows.count > shown else { return html }
        let more = rows.count - shown
        html += "<details class=\"more-rows\"><summary>Show \(HTMLFormatting.grouped(more)) more "
        html += "\(Plural.noun(more, noun))</summary>\n<div class=\"scroll\">\(open)\n\(head)\n<tbody>\n"
        return html + rows.dropFirst(shown).joined() + "</tbody>\n</table></div>\n</details>\n"
    }
}
