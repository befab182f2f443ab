import Foundation
import StocktakeModel
import StocktakeRendering
import StocktakeReport
import TestSupport
import Testing

/// Opens the HTML report of the synthetic container in headless Chromium and reads back the DOM the browser
/// built: hostile names must be inert text, the policy must let our own script run, and the essentials must
/// be there with scripts off. Skipped without Chromium (see `Browser`); `STOCKTAKE_SCREENSHOT=/path.png` also
/// saves a screenshot for a human to look at.
@Suite struct BrowserTests {
    @Test(.needsChromium)
    func hostileNamesStayTextAndOurScriptRuns() throws {
        let browser = try Self.syntheticReport()
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM()

        #expect(
            DOM.rootTag(dom) == "<html lang=\"en\" data-enhanced=\"true\">",
            "the CSP hash let the page's own script run")
        #expect(dom.contains("<button type=\"button\" class=\"sort\">"), "the script made the table headers sortable")
        #expect(
            DOM.documentTitle(dom) == "Stocktake: \(SyntheticContainer.bundleIdentifier)",
            "no injected handler renamed the page")
        #expect(!dom.contains("pwned</title>"))
        #expect(!dom.contains("<img"), "no image element was injected")
        let svgs = DOM.svgTags(dom)
        #expect(svgs.allSatisfy { $0.contains(" class=\"") }, "every svg is the page's own (it carries a class)")
        #expect(svgs.filter { !DOM.isTreemapPart($0) }.count == 2, "the two charts and the treemap are the only SVG")
        #expect(
            dom.contains("&lt;img src=x onerror=document.title='pwned'&gt;.jpg"), "the hostile name is shown as text")
        #expect(dom.contains("&lt;svg onload=document.title='pwned'&gt;"))
        #expect(dom.components(separatedBy: "<script").count - 1 == 1)

        let totals = SyntheticContainer.inventory().totals
        #expect(totals.onDisk.allocatedBytes == 20_156_416)
        #expect(dom.contains("title=\"20,156,416 bytes\">20.2 MB"), "the allocated total is on the page")
        #expect(dom.contains("Documents &amp; Data"))

        if let screenshot = Browser.environment["STOCKTAKE_SCREENSHOT"] {
            try browser.screenshot(to: screenshot)
        }
    }

    /// A page whose script differs from the hashed one by a word: the policy must block it, and the page must
    /// still show its essentials, exactly as a reader with scripts off sees it. (Chromium's own switch for
    /// turning scripts off also stops `--dump-dom` from printing anything, so it cannot be used here.)
    @Test(.needsChromium)
    func tamperedScriptIsBlockedAndEssentialsRemain() throws {
        let browser = try Self.syntheticReport { html in
            let tampered = html.replacingOccurrences(
                of: "\"data-enhanced\", \"true\"", with: "\"data-enhanced\", \"tampered\"")
            #expect(tampered != html, "the script text to tamper with was found")
            return tampered
        }
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM()

        #expect(DOM.rootTag(dom) == "<html lang=\"en\">", "a script that does not match the hash must not run")
        #expect(!dom.contains("class=\"sort\""))
        #expect(dom.contains("title=\"20,156,416 bytes\">20.2 MB"))
        #expect(
            dom.contains("<details open=\"\"><summary class=\"t-row t-root\""),
            "the tree is open and collapsible without script")
        #expect(dom.contains("Application Support"))
        #expect(dom.contains("Documents/<wbr>Projects/<wbr>Alpha/<wbr>model.sqlite"), "the largest files are listed")
    }

    /// The synthetic container's report, rendered and loaded; `adjust` may change the page before it is
    /// written (to simulate tampering).
    static func syntheticReport(adjust: (String) -> String = { $0 }) throws -> Browser {
        let report = Report(
            tool: ToolInfo(version: "0.1.0-test"),
            generatedAt: Date(timeIntervalSince1970: SyntheticContainer.generatedAtSecondsSince1970),
            container: SyntheticContainer.description(), inventory: SyntheticContainer.inventory())
        return try Browser(html: adjust(HTMLReportWriter().render(report)))
    }
}
