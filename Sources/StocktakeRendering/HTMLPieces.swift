import StocktakeModel

/// Small markup fragments shared by the sections. Every argument that is text gets escaped here (by `HTML`'s
/// interpolation).
public enum HTMLPieces {
    /// A human size with the exact byte count in its title: `<span title="1,234 bytes">1.2 KB</span>`.
    public static func size(_ bytes: Int64) -> HTML {
        "<span title=\"\(HTMLFormatting.exactBytes(bytes))\">\(ByteCount.format(bytes))</span>"
    }

    /// A right-aligned table cell holding a size; `data-value` lets the script sort by the exact number.
    public static func sizeCell(_ bytes: Int64) -> HTML {
        "<td class=\"num\" data-value=\"\(bytes)\" title=\"\(HTMLFormatting.exactBytes(bytes))\">\(ByteCount.format(bytes))</td>"
    }

    /// A share as text for markup ("&lt;0.1%" for a sliver).
    public static func percent(_ part: Int64, of whole: Int64) -> HTML { HTML.text(Percent.share(part, of: whole)) }

    public static func countCell(_ count: Int) -> HTML {
        "<td class=\"num\" data-value=\"\(count)\">\(HTMLFormatting.grouped(count))</td>"
    }

    /// A coloured square for legends; the colour comes from `ReportPalette`, never from input.
    public static func swatch(_ colour: String) -> HTML {
        "<span class=\"swatch\" style=\"background:\(colour)\" aria-hidden=\"true\"></span>"
    }

    /// The opening of a section with its heading and an optional lead paragraph (plain text, escaped).
    public static func sectionStart(id: String, title: String, lead: String? = nil) -> HTML {
        var html: HTML = "<section id=\"\(id)\" aria-labelledby=\"\(id)-title\">\n"
        html += "<h2 id=\"\(id)-title\">\(title)</h2>\n"
        if let lead { html += "<p class=\"lead\">\(lead)</p>\n" }
        return html
    }

    public static let sectionEnd: HTML = "</section>\n"

    /// A table with every row shown, in the frame `ShortTable` gives a long one; `head` is the header row's cells.
    public static func table(head: HTML, rows: HTML, open: HTML = "<table>") -> HTML {
        "<div class=\"scroll\">\(open)\n<thead><tr>\(head)</tr></thead>\n<tbody>\n\(rows)</tbody>\n</table></div>\n"
    }

    /// A summary card: a label, a large value (with an extra class if given) and a note under it.
    public static func card(_ label: HTML, _ value: HTML, _ note: HTML, valueClass: String? = nil) -> HTML {
        "<div class=\"card\"><div class=\"card-label\">\(label)</div>"
            + "<div class=\"card-value\(valueClass.map { " " + $0 } ?? "")\">\(value)</div>"
            + "<div class=\"card-note\">\(note)</div></div>\n"
    }

    /// Everything of a self-contained page up to and including `<body>`: the policy that forbids loads,
    /// no referrer, the page's CSS inline. `generator` is text, escaped here.
    public static func pageStart(title: HTML, contentSecurityPolicy: HTML, generator: String?, css: HTML) -> HTML {
        let generatorLine: HTML = generator.map { "<meta name=\"generator\" content=\"\($0)\">\n" } ?? .empty
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            \(generatorLine)<title>\(title)</title>
            <style>
            \(css)
            </style>
            </head>
            <body>

            """
    }
}
