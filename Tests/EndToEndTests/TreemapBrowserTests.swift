import Foundation
import StocktakeModel
import StocktakeRendering
import StocktakeReport
import TestSupport
import Testing

/// The treemap as a reader uses it, in headless Chromium: the picture renders with its tiles, selecting a folder
/// shows that folder's picture, the breadcrumb leads back, links take keyboard focus, and hostile names are text.
/// Opening folders needs no script (links and `:target`), so the probe's own script only clicks and reads; the copy
/// it loads drops the page's Content-Security-Policy so the probe may run, markup and style unchanged.
@Suite(.serialized) struct TreemapBrowserTests {
    /// What the probe saw, as `key=value` pairs.
    static func probe(_ html: String, prefix: String) throws -> [String: String] {
        var page = html.replacingOccurrences(
            of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, with: "", options: .regularExpression)
        let script = """
            <script>addEventListener("load", function () {
              var seen = [];
              var shown = function () { return [].filter.call(document.querySelectorAll("#\(prefix)-0 ~ .tm-view, #\(prefix)-0"),
                function (v) { return getComputedStyle(v).display !== "none"; }).map(function (v) { return v.id; }).join(","); };
              var click = function (e) { e.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window})); };
              var svg = document.querySelector("#\(prefix)-0 .tm-svg"), box = svg.getBoundingClientRect();
              seen.push("initial=" + shown(), "size=" + Math.round(box.width) + "x" + Math.round(box.height));
              seen.push("painted=" + [].filter.call(svg.querySelectorAll("rect"), function (r) {
                var b = r.getBoundingClientRect(); return b.width >= 1 && b.height >= 1; }).length);
              var link = svg.querySelector("a[href^='#\(prefix)-']:not([href='#\(prefix)-0'])");
              seen.push("target=" + link.getAttribute("href"));
              link.focus();
              seen.push("focused=" + (document.activeElement === link));
              click(link);
              setTimeout(function () {
                seen.push("afterClick=" + shown(), "hash=" + location.hash);
                var crumb = document.querySelector(link.getAttribute("href") + " .tm-crumbs a");
                seen.push("crumb=" + (crumb ? crumb.getAttribute("href") : "none"));
                if (crumb) click(crumb);
                setTimeout(function () {
                  seen.push("afterBack=" + shown());
                  document.body.setAttribute("data-probe", seen.join("|"));
                }, 50);
              }, 50);
            });</script>
            """
        page = page.replacingOccurrences(of: "</body>", with: script + "</body>")
        let browser = try Browser(html: page)
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM(extraArguments: ["--virtual-time-budget=5000", "--window-size=1280,900"])
        let value = try #require(
            dom.range(of: #"data-probe="[^"]*""#, options: .regularExpression).map { String(dom[$0]) }, "the probe ran")
        var facts: [String: String] = [:]
        for pair in value.dropFirst("data-probe=\"".count).dropLast().split(separator: "|") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            facts[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return facts
    }

    static func expectOpensAndReturns(
        _ facts: [String: String], prefix: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            facts["initial"] == "\(prefix)-0", "only the whole container's picture shows at first: \(facts)",
            sourceLocation: sourceLocation)
        let size = facts["size"]?.split(separator: "x").compactMap { Int($0) } ?? []
        #expect(
            size.count == 2 && size[0] > 600 && size[1] * 8 >= size[0] * 5 - 16, "the picture is drawn 8:5: \(facts)",
            sourceLocation: sourceLocation)
        #expect((Int(facts["painted"] ?? "") ?? 0) >= 5, "tiles are painted: \(facts)", sourceLocation: sourceLocation)
        #expect(facts["focused"] == "true", "a folder's link takes keyboard focus", sourceLocation: sourceLocation)
        let target = String((facts["target"] ?? "").dropFirst())
        #expect(
            !target.isEmpty && facts["afterClick"] == target, "selecting the folder shows its picture alone: \(facts)",
            sourceLocation: sourceLocation)
        #expect(facts["hash"] == "#" + target, sourceLocation: sourceLocation)
        #expect(
            facts["crumb"] == "#\(prefix)-0", "the breadcrumb's first link is the whole container",
            sourceLocation: sourceLocation)
        #expect(
            facts["afterBack"] == "\(prefix)-0", "the breadcrumb leads back: \(facts)", sourceLocation: sourceLocation)
    }

    @Test("report: a folder's tile opens its picture, the breadcrumb leads back", .needsChromium)
    func reportTreemapNavigates() throws {
        let html = Self.page(Self.hostileInventory())
        Self.expectOpensAndReturns(try Self.probe(html, prefix: "map"), prefix: "map")
    }

    @Test("diff: the growth picture of the two sample versions opens folders the same way", .needsChromium)
    func diffTreemapNavigates() throws {
        let reports = DiffCommandTests.shared
        let name = "treemap-\(UUID().uuidString).html"
        let result = try reports.diff(["r1", "r2", "--format", "html", "--output", name])
        try #require(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: reports.folder.path(name), encoding: .utf8)
        Self.expectOpensAndReturns(try Self.probe(html, prefix: "map"), prefix: "map")
    }

    /// The page as it ships (policy on, no probe): hostile names in tiles and titles are text, shortened when long,
    /// and nothing they hold runs or becomes an element.
    @Test("hostile names in the treemap stay text and run nothing", .needsChromium)
    func hostileNamesStayText() throws {
        let html = Self.page(Self.hostileInventory())
        let browser = try Browser(html: html)
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM()
        let map = try #require(StaticPageBrowserTests.section(dom, from: "<section id=\"map\"", to: "</section>"))

        #expect(
            DOM.documentTitle(dom) == "Stocktake: \(SyntheticContainer.bundleIdentifier)",
            "no injected handler renamed the page")
        #expect(dom.components(separatedBy: "<script").count - 1 == 1, "the page's own script only")
        #expect(!map.contains("<img") && !map.contains("<b>"))
        #expect(
            DOM.svgTags(String(map)).allSatisfy { $0.contains(" class=\"") }, "every svg in the map is the page's own")
        #expect(map.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the script-shaped name is a tile's text")
        #expect(map.contains("a \"quoted\" &amp; 'single'"))
        #expect(!map.unicodeScalars.contains("\u{202E}"), "no right-to-left override reaches the page")
        #expect(!map.unicodeScalars.contains("\u{07}"), "no control character reaches the page")
        #expect(map.contains(String(repeating: "x", count: 80) + "…"), "a 4 KB name is shortened")
        #expect(!map.contains(String(repeating: "x", count: 81)))
    }

    /// The report page of an inventory, described as the synthetic container.
    static func page(_ inventory: Inventory) -> String {
        HTMLReportWriter().render(
            Report(
                tool: ToolInfo(version: "0.1.0-test"),
                generatedAt: Date(timeIntervalSince1970: SyntheticContainer.generatedAtSecondsSince1970),
                container: SyntheticContainer.description(), inventory: inventory))
    }

    /// Folders large enough to get pictures of their own, holding names that would run script, quotes, a
    /// right-to-left override, control characters and a 4 KB name.
    static func hostileInventory() -> Inventory {
        var builder = InventoryBuilder()
        let names = [
            "<script>alert(1)</script>", "a \"quoted\" & 'single'", "invoice\u{202E}fdp.exe",
            "bell\u{07}and\u{1B}[31mred",
            String(repeating: "x", count: 4096), SyntheticContainer.hostileImageName,
        ]
        for (number, name) in names.enumerated() {
            builder.add("Documents/\(name)/inside-\(number).bin", apparentBytes: Int64(3_000_000 - number * 200_000))
            builder.add("Documents/\(name)/second.bin", apparentBytes: 900_000)
        }
        builder.add("Library/Caches/\(SyntheticContainer.hostileFolderName)/cache.bin", apparentBytes: 2_000_000)
        builder.add("Library/Application Support/store.sqlite", apparentBytes: 4_000_000)
        return builder.build()
    }
}
