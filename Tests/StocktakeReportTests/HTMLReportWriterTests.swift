import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

/// What a security-minded reader checks in the page: nothing loads from anywhere, only our own script runs,
/// every name from the container is inert text, and the numbers are the inventory's.
@Suite struct HTMLReportWriterTests {
    let html = SyntheticReport.html()

    @Test func pageIsWellFormed() {
        let structure = HTMLStructure(html)
        #expect(structure.problems == [])
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"))
        let head = html.components(separatedBy: "</head>")[0]
        #expect(head.components(separatedBy: "<title>").count == 2, "one document title")
    }

    @Test func exactlyOneInlineScriptAndNoExternalReferences() {
        let structure = HTMLStructure(html)
        #expect(structure.elements(named: "script").count == 1)
        #expect(html.lowercased().components(separatedBy: "<script").count == 2)
        #expect(structure.elements(named: "script").first?.attributes.isEmpty == true, "no src, no type, no nonce")
        for element in structure.elements {
            for (name, value) in element.attributes {
                let lowered = name.lowercased()
                #expect(!lowered.hasPrefix("on"), "event handler \(name) on <\(element.name)>")
                if ["src", "href", "xlink:href", "action", "formaction", "srcset", "poster", "data"].contains(lowered) {
                    #expect(value.hasPrefix("#"), "<\(element.name) \(name)=\"\(value)\"> points outside the page")
                }
            }
        }
        #expect(!html.contains("://"), "no URL of any kind")
        // `url(#…)` names a pattern on the page itself (the treemap's hatching); any other url() would load.
        #expect(!html.lowercased().replacingOccurrences(of: "url(#", with: "").contains("url("), "no CSS loads")
        #expect(!html.lowercased().contains("@import"))
        #expect(structure.elements(named: "link").isEmpty && structure.elements(named: "img").isEmpty)
        #expect(structure.elements(named: "iframe").isEmpty && structure.elements(named: "object").isEmpty)
    }

    @Test func contentSecurityPolicyAllowsOnlyTheScriptByItsHash() throws {
        let structure = HTMLStructure(html)
        let meta = try #require(
            structure.elements(named: "meta").first { $0.attribute("http-equiv") == "Content-Security-Policy" })
        let policy = try #require(meta.attribute("content"))
        let directives = Dictionary(
            policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                .map { (String($0.prefix { $0 != " " }), String($0.drop { $0 != " " }.dropFirst())) },
            uniquingKeysWith: { first, _ in first })
        #expect(directives["default-src"] == "'none'")
        #expect(directives["style-src"] == "'unsafe-inline'")
        #expect(directives["img-src"] == "data:")
        let scriptSource = try #require(directives["script-src"])
        #expect(!scriptSource.contains("unsafe"))
        let script = try #require(structure.elements(named: "script").first?.rawText)
        #expect(scriptSource == "'sha256-\(Digests.sha256Base64(Array(script.utf8)))'")
        // The policy must come before anything it governs.
        let policyOffset = try #require(html.range(of: "Content-Security-Policy")).lowerBound
        #expect(policyOffset < (html.range(of: "<style>")?.lowerBound ?? html.endIndex))
    }

    @Test func hostileNamesAppearOnlyEscaped() {
        let structure = HTMLStructure(html)
        // The page's own SVGs (the two charts, the treemap's pictures and tiles) all carry a class; an svg without
        // one, or any img, i or b, came from a name.
        let svgs = structure.elements(named: "svg")
        #expect(svgs.count > 2)
        #expect(svgs.allSatisfy { $0.attributes.contains { $0.name == "class" } }, "an svg the page did not write")
        for name in ["img", "i", "b"] {
            #expect(structure.elements(named: name).isEmpty, "injected <\(name)> element")
        }
        #expect(!structure.elements.contains { $0.attributes.contains { $0.name.lowercased().hasPrefix("on") } })
        #expect(!html.contains(SyntheticContainer.hostileMetadataValue))
        #expect(html.contains("Documents/<wbr>&lt;img src=x onerror=document.title=&#39;pwned&#39;&gt;.jpg"))
        #expect(html.contains("&lt;svg onload=document.title=&#39;pwned&#39;&gt;"))
        #expect(html.contains("&lt;/script&gt;&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"))
        #expect(html.contains("a &quot;quoted&quot; &amp; &#39;single&#39;\u{240A}line.txt"), "newline shown as ␊")
        #expect(html.contains("Documents/<wbr>f\u{FFFD}\u{FFFD}.db"), "invalid UTF-8 shown as U+FFFD")
        #expect(!html.unicodeScalars.contains("\u{202E}"), "no right-to-left override reaches the page")
        #expect(html.contains("/exports/Demo &quot;&lt;i&gt;x&lt;/i&gt;&quot; &amp; co.xcappdata"))
        #expect(html.contains("Test &quot;iPhone&quot; &amp; &lt;friends&gt;"))
    }

    @Test func totalsAppearWithExactBytes() {
        let totals = SyntheticContainer.inventory().totals
        let figures: [(String, Int64)] = [
            ("on disk", totals.onDisk.allocatedBytes),
            ("documents and data", totals.documentsAndData.allocatedBytes),
            ("purgeable", totals.purgeable.allocatedBytes),
            ("backed up", totals.backup[.included]?.allocatedBytes ?? -1),
            ("documents", totals.byLocation[.documents]?.allocatedBytes ?? -1),
            ("caches", totals.byLocation[.caches]?.allocatedBytes ?? -1),
        ]
        for (label, bytes) in figures {
            #expect(bytes > 0, "\(label) should not be empty in the sample")
            #expect(html.contains("title=\"\(Self.grouped(bytes)) bytes\""), "\(label): \(bytes) bytes")
        }
        // Hand-checked against the sample: 11 Documents files, one of them a hard-link duplicate.
        #expect(totals.byLocation[.documents]?.files == 11)
        #expect(html.contains("<td data-label=\"Files\" class=\"num\" data-value=\"11\">11</td>"))
        #expect(html.contains(SyntheticContainer.bundleIdentifier))
        // Worked out by hand from the sample: files rounded up to 4 KiB, 27 folders of 4 KiB, one duplicate.
        #expect(totals.onDisk.allocatedBytes == 20_156_416)
        #expect(
            html.contains(
                "<td data-label=\"Allocated\" class=\"num\" data-value=\"20156416\" title=\"20,156,416 bytes\">20.2 MB</td>"
            ))
    }

    @Test func everyMetadataKeyIsShown() {
        for key in [
            "CFBundleIdentifier", "XCExecutableVersion", "DeviceName", "DownloadDate", "Architectures", "Nested",
            "Count", "Ratio", "Enabled", "Token", "Ref", "Multiline",
        ] {
            #expect(html.contains("<dt>\(key)</dt>"), "metadata key \(key)")
        }
        #expect(html.contains("2024-03-01T08:30:00Z"), "plist date in UTC")
        #expect(html.contains("deadbeef"))
        #expect(html.contains("binary plist truncated at offset 42 &lt;unexpected end&gt;"))
    }

    @Test func sectionsArePresent() {
        for id in ["summary", "container", "locations", "backup", "folders", "largest-files", "kinds", "issues"] {
            #expect(html.contains("<section id=\"\(id)\""), "section \(id)")
            #expect(html.contains("<a href=\"#\(id)\">"), "contents link to \(id)")
        }
        #expect(html.contains("permissionDenied"))
        #expect(html.contains("removed while the audit ran"))
        #expect(html.contains("<table data-stack data-sortable>"))
        #expect(html.contains("<details open><summary class=\"t-row t-root\""), "tree opens without script")
    }

    @Test func legendAndBarUseTheSameColours() {
        for location in [Location.documents, .applicationSupport, .caches, .tmp] {
            let bar = html.components(separatedBy: "fill=\"").dropFirst().map { String($0.prefix(7)) }
            let legend = html.components(separatedBy: "style=\"background:").dropFirst().map { String($0.prefix(7)) }
            let barColour = html.range(of: "<title>\(location.title): ").map { range in
                String(html[..<range.lowerBound].suffix(30)).components(separatedBy: "fill=\"").last?.prefix(7)
            }
            let colour = barColour.flatMap { $0 }.map(String.init)
            #expect(colour != nil, "bar segment for \(location)")
            if let colour {
                #expect(bar.contains(colour) && legend.contains(colour), "\(location) has \(colour) in bar and legend")
            }
        }
    }

    @Test func outputIsDeterministic() {
        let again = HTMLReportWriter().render(SyntheticReport.make())
        #expect(again == html)
        #expect(!html.contains("NaN") && !html.contains("nan%"))
    }

    static func grouped(_ value: Int64) -> String {
        let digits = Array(String(value))
        return String(digits.enumerated().flatMap { i, d in (i > 0 && (digits.count - i) % 3 == 0) ? [",", d] : [d] })
    }
}
