import Foundation
import StocktakeRendering
import TestSupport
import Testing

/// `HTML`: literals are markup, interpolated text is escaped, `HTML` passes through, and `HTML.raw` is the one
/// way a `String` becomes markup (held to a listed set of call sites).
@Suite struct HTMLTests {
    @Test func interpolatedTextIsEscaped() {
        let hostile = "<script>alert(\"x\" + 'y')</script> & more"
        let html: HTML = "<p title=\"\(hostile)\">\(hostile)</p>"
        let escaped = "&lt;script&gt;alert(&quot;x&quot; + &#39;y&#39;)&lt;/script&gt; &amp; more"
        #expect(html.markup == "<p title=\"\(escaped)\">\(escaped)</p>")
        #expect(!html.markup.contains("<script"))
    }

    @Test func entitiesInTextAreEscapedAgain() {
        let html: HTML = "\("&amp; &lt;")"
        #expect(html.markup == "&amp;amp; &amp;lt;")
    }

    /// Controls HTML forbids become U+FFFD; a bare CR is a line break; tab and newline stay.
    @Test func controlCharactersInTextAreReplaced() {
        let nonCharacters = String(
            String.UnicodeScalarView(
                [0xFDD0, 0xFFFE].compactMap(Unicode.Scalar.init(_:) as (UInt32) -> Unicode.Scalar?)))
        let html: HTML = "\("nul\u{0}esc\u{1B}del\u{7F}c1\u{85}" + nonCharacters + "|a\r\nb\tc")"
        #expect(html.markup == "nul\u{FFFD}esc\u{FFFD}del\u{FFFD}c1\u{FFFD}\u{FFFD}\u{FFFD}|a\n\nb\tc")
    }

    /// Names, paths and visible text show controls as pictures and bidirectional controls as U+FFFD, so
    /// `invoice\u{202E}fdp.exe` cannot read as `invoiceexe.pdf`; their markup characters are escaped too.
    @Test func bidiControlsAndControlsInNamesAreShownNotObeyed() {
        let name = "<b>invoice\u{202E}fdp.exe\u{2066}\u{1B}\n\"'&"
        let shown = "&lt;b&gt;invoice\u{FFFD}fdp.exe\u{FFFD}\u{241B}\u{240A}&quot;&#39;&amp;"
        let visible: HTML = "\(visible: name)"
        let byName: HTML = "\(name: Array(name.utf8))"
        let byPath: HTML = "\(path: Array(("dir/" + name).utf8))"
        #expect(visible.markup == shown)
        #expect(byName.markup == shown)
        #expect(byPath.markup == "dir/<wbr>" + shown)
        #expect(HTML.visible(name) == visible && HTML.name(Array(name.utf8)) == byName)
        // Invalid UTF-8 in a name becomes U+FFFD before escaping.
        let invalid: HTML = "\(name: [0x3C, 0xFF, 0x3E])"
        #expect(invalid.markup == "&lt;\u{FFFD}&gt;")
    }

    @Test func htmlPassesThroughAndNumbersAreDigits() {
        let inner: HTML = "<b>\("a&b")</b>"
        let outer: HTML = "<p>\(inner) \(42) \(Int64(-7)) \(UInt8(255))</p>"
        #expect(outer.markup == "<p><b>a&amp;b</b> 42 -7 255</p>")
        #expect(outer.description == outer.markup)
    }

    @Test func concatenationAndJoining() {
        var html: HTML = "<ul>"
        html += ["<li>\("1<2")</li>", "<li>2</li>"].joined(separator: "\n")
        html = html + "</ul>"
        #expect(html.markup == "<ul><li>1&lt;2</li>\n<li>2</li></ul>")
        #expect(([] as [HTML]).joined(separator: "x").isEmpty)
        #expect(HTML.empty.isEmpty && !html.isEmpty)
        #expect(HTML.text("<") == "&lt;")
    }

    @Test func rawIsMarkupAsGiven() {
        #expect(HTML.raw("<i>&amp;</i>").markup == "<i>&amp;</i>")
    }

    @Test func sharedPiecesEscapeTheirText() {
        let section = HTMLPieces.sectionStart(id: "s", title: "<Title>", lead: "a & 'b'")
        #expect(
            section.markup == "<section id=\"s\" aria-labelledby=\"s-title\">\n<h2 id=\"s-title\">&lt;Title&gt;</h2>\n"
                + "<p class=\"lead\">a &amp; &#39;b&#39;</p>\n")
        let page = HTMLPieces.pageStart(
            title: "\("<x>")", contentSecurityPolicy: "default-src 'none'", generator: "\"g\"", css: "p{}")
        #expect(page.markup.contains("<title>&lt;x&gt;</title>"))
        #expect(page.markup.contains("<meta name=\"generator\" content=\"&quot;g&quot;\">"))
        #expect(page.markup.contains("content=\"default-src 'none'\""))
    }

    /// Every place a `String` becomes markup without escaping, and why it is trusted. A new `HTML.raw` call is a
    /// conscious decision: add it here with its reason.
    static let rawCallSites: [String: Int] = [
        // The finished page's own markup, with data-label attributes copied from its own (escaped) headings.
        "StocktakeRendering/PhoneTables.swift": 1,
        // The pages' style sheets, script and treemap pattern: files of this module (Style/), compiled in.
        "StocktakeRendering/ReportStyle.swift": 1,
    ]

    @Test func htmlRawIsTheOnlyWayInForAString() throws {
        let sources = Repository.path("Sources")
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []
        var found: [String: Int] = [:]
        var otherWays: [String] = []
        for path in files.filter({ $0.hasSuffix(".swift") }).sorted() {
            let text = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
            let raw = text.components(separatedBy: "HTML.raw(").count - 1
            if raw > 0 { found[path] = raw }
            // `.raw(` without its type (`let x: HTML = .raw(s)`) would hide a call from the count above.
            if text.components(separatedBy: ".raw(").count - 1 != raw {
                otherWays.append(path + ": .raw( without HTML")
            }
            // The literal initialisers take StaticString; still, nothing outside HTML.swift calls them by name.
            if path != "StocktakeRendering/HTML.swift" && (text.contains("Literal:") || text.contains("appendLiteral("))
            {
                otherWays.append(path + ": a literal initialiser called by name")
            }
        }
        #expect(found == Self.rawCallSites)
        #expect(otherWays.isEmpty, "\(otherWays)")
    }
}
