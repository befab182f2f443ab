import Foundation
import TestSupport
import Testing

@testable import StocktakeDiff

/// The diff page as a security-minded reader checks it (the same checks as for report.html): nothing
/// loads from anywhere, no script runs at all, every name is inert text; and the essentials are there.
@Suite struct DiffHTMLWriterTests {
    static let html = try! SyntheticDiff.render(.html)

    @Test func pageIsWellFormed() {
        #expect(HTMLStructure(Self.html).problems == [])
        #expect(Self.html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"))
        #expect(Self.html.contains("<title>Stocktake diff: com.example.chat 1.4.0 → 1.5.0</title>"))
    }

    @Test func contentSecurityPolicyAllowsNoLoadAndNoScript() throws {
        let structure = HTMLStructure(Self.html)
        let meta = try #require(
            structure.elements(named: "meta").first { $0.attribute("http-equiv") == "Content-Security-Policy" })
        let policy = try #require(meta.attribute("content"))
        let directives = Dictionary(
            policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                .map { (String($0.prefix { $0 != " " }), String($0.drop { $0 != " " }.dropFirst())) },
            uniquingKeysWith: { first, _ in first })
        #expect(directives["default-src"] == "'none'")
        #expect(directives["script-src"] == "'none'")
        #expect(directives["style-src"] == "'unsafe-inline'")
        #expect(directives["base-uri"] == "'none'" && directives["form-action"] == "'none'")
        let policyOffset = try #require(Self.html.range(of: "Content-Security-Policy")).lowerBound
        #expect(policyOffset < (Self.html.range(of: "<style>")?.lowerBound ?? Self.html.endIndex))
    }

    @Test func noScriptAndNoExternalReference() {
        let structure = HTMLStructure(Self.html)
        #expect(structure.elements(named: "script").isEmpty)
        #expect(!Self.html.lowercased().contains("<script"))
        for element in structure.elements {
            for (name, value) in element.attributes {
                let lowered = name.lowercased()
                #expect(!lowered.hasPrefix("on"), "event handler \(name) on <\(element.name)>")
                if ["src", "href", "xlink:href", "action", "formaction", "srcset", "poster", "data"].contains(lowered) {
                    #expect(value.hasPrefix("#"), "<\(element.name) \(name)=\"\(value)\"> points outside the page")
                }
            }
        }
        #expect(!Self.html.contains("://"), "no URL of any kind")
        // `url(#…)` names a pattern on the page itself; any other url() would load. Only style can load, so the
        // style sheet and style attributes are read (a rule's fix text may well quote `FileManager.url(for:`).
        let sheet =
            Self.html.components(separatedBy: "<style>").dropFirst().first?.components(separatedBy: "</style>")
            .first ?? ""
        let styles = [sheet] + structure.elements.compactMap { $0.attribute("style") }
        for style in styles.map({ $0.lowercased() }) {
            #expect(!style.replacingOccurrences(of: "url(#", with: "").contains("url(") && !style.contains("@import"))
        }
        for name in ["link", "img", "iframe", "object", "embed", "form"] {
            #expect(structure.elements(named: name).isEmpty, "<\(name)>")
        }
    }

    @Test func hostileNamesAppearOnlyEscaped() {
        let structure = HTMLStructure(Self.html)
        // The treemap's pictures and tiles all carry a class; an svg without one came from a name.
        #expect(
            structure.elements(named: "svg").allSatisfy { $0.attributes.contains { $0.name == "class" } },
            "an svg the page did not write")
        #expect(structure.elements(named: "b").isEmpty, "a group member named <b>bold</b> stays text")
        #expect(Self.html.contains("Documents/<wbr>&lt;script&gt;alert(&#39;x&#39;)&lt;/<wbr>script&gt;.jpg"))
        #expect(Self.html.contains("&lt;b&gt;bold&lt;/b&gt;"))
        #expect(Self.html.contains("Library/<wbr>Caches/<wbr>log\u{241B}[31mred.txt"), "ESC shown as ␛")
        #expect(Self.html.contains("A file \u{241B}]0;title\u{2407} here"))
        #expect(Self.html.contains("Documents/<wbr>写真/<wbr>猫の写真.heic"))
        #expect(!Self.html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func showsEverySectionAndTheRisk() {
        for id in ["summary", "gates", "locations", "directories", "left-behind", "files", "groups", "findings"] {
            #expect(Self.html.contains("<section id=\"\(id)\""), "section \(id)")
            #expect(Self.html.contains("<a href=\"#\(id)\">"), "contents link to \(id)")
        }
        #expect(Self.html.contains("<section id=\"left-behind\" class=\"risk\""))
        #expect(Self.html.contains("<span class=\"tag fail\">FAILED</span>"))
        #expect(Self.html.contains("<span class=\"tag fail\">now exceeded</span>"))
        #expect(Self.html.contains("<tr class=\"total\"><td data-label=\"Location\" class=\"nowrap\">On disk</td>"))
        #expect(Self.html.contains("<p class=\"note\">… and 6 others (-313 KB)"))
    }

    /// Growth and shrink differ by sign in the chart, not only by colour.
    @Test func chartLabelsEveryBarWithItsSign() throws {
        let start = try #require(Self.html.range(of: "<div class=\"dchart\""))
        let chart = String(
            Self.html[start.lowerBound...].prefix { $0 != "§" }.components(separatedBy: "</div>\n</div>")[0])
        #expect(
            chart.contains("<span class=\"dc-value\">+2.0 MB</span>")
                && chart.contains("<span class=\"dc-value\">-500 KB</span>"))
        #expect(chart.contains("title=\"+12.3 KB ([NEW])\""))
        #expect(!chart.contains(">Other</span>"), "a location empty on both sides has no row")
    }

    @Test func sectionsWithoutContentSaySo() throws {
        let quiet = ReportDiff(
            old: SyntheticDiff.make().old, new: SyntheticDiff.make().new, totals: [], locations: [],
            directories: ListHead(shown: [], othersCount: 0, othersAllocatedDelta: 0),
            files: FileChanges(added: [], removed: [], changed: [], moved: [], leftBehind: []), groups: [], budgets: [],
            findings: FindingChanges(new: [], resolved: [], unchanged: 0))
        let html = try SyntheticDiff.render(.html, quiet, gates: [])
        #expect(HTMLStructure(html).problems == [])
        #expect(html.contains("No folder changed."))
        #expect(
            !html.contains("id=\"gates\"") && !html.contains("id=\"left-behind\"") && !html.contains("id=\"groups\""))
    }
}
