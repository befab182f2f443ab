import StocktakeModel
import StocktakeRendering

/// A property-list value as nested lists. Bounded in depth, items per collection, total values and string
/// length, because a container's plists are input like any other file.
enum PropertyListHTML {
    static let maximumDepth = 8
    static let maximumItemsPerCollection = 200
    static let maximumValues = 2000
    static let maximumStringScalars = 2000
    static let dataPreviewBytes = 32

    static func render(_ value: PropertyListValue) -> HTML {
        var budget = maximumValues
        return "<div class=\"plist\">\(render(value, depth: 0, budget: &budget))</div>\n"
    }

    private static func render(_ value: PropertyListValue, depth: Int, budget: inout Int) -> HTML {
        budget -= 1
        switch value {
        case .string(let text): return tagged("string", HTML.text(truncated(text)))
        case .integer(let number): return tagged("integer", "\(number)")
        case .real(let number): return tagged("real", HTML.text(String(number)))
        case .bool(let flag): return tagged("boolean", flag ? "true" : "false")
        case .date(let seconds):
            let text = ReportDates.utc(secondsSince1970: seconds + 978_307_200) ?? "\(seconds) s after 2001-01-01"
            return tagged("date", HTML.text(text))
        case .data(let bytes): return tagged("data", data(bytes))
        case .uid(let number): return tagged("uid", "\(number)")
        case .array(let items):
            guard !items.isEmpty else { return tagged("array", "empty") }
            guard depth < maximumDepth else {
                return tagged("array", "\(Plural.count(items.count, "item")), nested too deep to show")
            }
            var html: HTML = "<ol start=\"0\">"
            var shown = 0
            for item in items.prefix(maximumItemsPerCollection) {
                guard budget > 0 else { break }
                html += "<li>\(render(item, depth: depth + 1, budget: &budget))</li>"
                shown += 1
            }
            return html + "</ol>" + omitted(items.count, shown: shown)
        case .dictionary(let entries):
            guard !entries.isEmpty else { return tagged("dictionary", "empty") }
            guard depth < maximumDepth else {
                return tagged("dictionary", "\(entries.count) keys, nested too deep to show")
            }
            // Sorted keys: the page must not depend on dictionary order.
            var html: HTML = "<dl>"
            var shown = 0
            for key in entries.keys.sorted().prefix(maximumItemsPerCollection) {
                guard budget > 0, let item = entries[key] else { break }
                html += "<dt>\(truncated(key))</dt><dd>\(render(item, depth: depth + 1, budget: &budget))</dd>"
                shown += 1
            }
            return html + "</dl>" + omitted(entries.count, shown: shown)
        }
    }

    private static func tagged(_ type: String, _ html: HTML) -> HTML { "<span class=\"t\">\(type)</span>\(html)" }

    private static func truncated(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > maximumStringScalars else { return text }
        var short = String.UnicodeScalarView(scalars.prefix(maximumStringScalars))
        short.append(contentsOf: "… (\(scalars.count) characters)".unicodeScalars)
        return String(short)
    }

    private static func data(_ bytes: [UInt8]) -> HTML {
        let hex = Hex.lowercase(bytes.prefix(dataPreviewBytes))
        let more = bytes.count > dataPreviewBytes ? "…" : ""
        return "\(HTMLFormatting.exactBytes(Int64(bytes.count)))"
            + (bytes.isEmpty ? .empty : ": <code>\(hex)\(more)</code>")
    }

    private static func omitted(_ total: Int, shown: Int) -> HTML {
        guard total > shown else { return .empty }
        return
            "<p class=\"note\">\(HTMLFormatting.grouped(total - shown)) of \(HTMLFormatting.count(total, "item")) not shown.</p>"
    }
}
