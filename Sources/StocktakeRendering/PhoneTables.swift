import StocktakeModel

/// Tables that become stacked rows on a phone. Each body cell gets its column's heading as `data-label`, and
/// `ReportStyle.css` shows cells one under another below 600 px with that label beside the value, so nothing
/// scrolls sideways and every number keeps its name. Runs once over a finished page, up to its script: the
/// pages' own markup is the only input (container text is escaped, so `<td` and `<th` can only be ours).
public enum PhoneTables {
    public static func label(_ page: HTML) -> HTML {
        let html = Array(page.markup.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(html.count + html.count / 8)
        var headings: [[UInt8]] = []
        var column = 0
        var i = 0
        while i < html.count {
            if html[i] == UInt8(ascii: "<") {
                // The script is allowed by its hash: it must reach the page byte for byte.
                if starts(html, i, "<script") {
                    out.append(contentsOf: html[i...])
                    break
                }
                if starts(html, i, "<table") {
                    headings = tableHeadings(html, from: i)
                    out.append(contentsOf: Array("<table data-stack".utf8))
                    i += 6
                    continue
                }
                if starts(html, i, "<tr") && !starts(html, i, "<track") { column = 0 }
                if starts(html, i, "<td") && (html[i + 3] == UInt8(ascii: ">") || html[i + 3] == UInt8(ascii: " ")) {
                    let end = html[i...].firstIndex(of: UInt8(ascii: ">")) ?? html.count
                    let tag = html[i..<end]
                    out.append(contentsOf: Array("<td".utf8))
                    if column < headings.count, !contains(tag, "colspan"), !contains(tag, "data-label") {
                        out.append(contentsOf: Array(" data-label=\"".utf8) + headings[column] + [UInt8(ascii: "\"")])
                    }
                    column += 1
                    i += 3
                    continue
                }
            }
            out.append(html[i])
            i += 1
        }
        // The page's own markup with attributes added whose values are copied from its own headings (already
        // escaped text, tags and quotes dropped), so nothing here is text that was not markup before.
        return HTML.raw(String(decoding: out, as: UTF8.self))
    }

    /// The text of each `<th>` of the table's `<thead>`, tags dropped, ready for an attribute (no quotes).
    private static func tableHeadings(_ html: [UInt8], from start: Int) -> [[UInt8]] {
        guard let head = find(html, "<thead", from: start), let headEnd = find(html, "</thead>", from: head),
            find(html, "</table>", from: start).map({ $0 > head }) ?? false
        else { return [] }
        var headings: [[UInt8]] = []
        var i = head
        while let cell = find(html, "<th", from: i), cell < headEnd {
            guard let open = html[cell...].firstIndex(of: UInt8(ascii: ">")),
                let close = find(html, "</th>", from: open)
            else { break }
            headings.append(text(html[(open + 1)..<close]))
            i = close
        }
        return headings
    }

    /// Markup to attribute text: tags dropped, quotes left out.
    private static func text(_ markup: ArraySlice<UInt8>) -> [UInt8] {
        var text: [UInt8] = []
        var inTag = false
        for byte in markup {
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") {
                inTag = byte == UInt8(ascii: "<")
            } else if !inTag && byte != UInt8(ascii: "\"") {
                text.append(byte)
            }
        }
        return text
    }

    private static func starts(_ html: [UInt8], _ at: Int, _ literal: String) -> Bool {
        html[at...].starts(with: literal.utf8)
    }

    private static func find(_ html: [UInt8], _ literal: String, from start: Int) -> Int? {
        ByteSearch.firstIndex(of: literal.utf8, in: html[...], from: start)
    }

    private static func contains(_ tag: ArraySlice<UInt8>, _ literal: String) -> Bool {
        ByteSearch.contains(literal.utf8, in: tag)
    }
}
