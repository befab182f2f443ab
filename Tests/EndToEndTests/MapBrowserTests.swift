import Foundation
import StocktakeModel
import StocktakeReport
import Testing

/// Issue 42, the map as a reader meets it in headless Chromium: one picture reaches three folders deep, every
/// folder's tile opens something new (its own picture or its list, never the picture it is in), tiles clip their
/// labels, a tap names the tile in the caption, and the diff's two sides are drawn at one scale.
@Suite(.serialized) struct MapBrowserTests {
    /// Runs `script` (which ends by calling `done(facts)`) on the page without its Content-Security-Policy, at
    /// `width`, and returns the facts it reported.
    static func probe(_ html: String, width: Int = 1280, script: String) throws -> [String: String] {
        var page = html.replacingOccurrences(
            of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, with: "", options: .regularExpression)
        // Headless Chromium opens no window narrower than 500 pixels; a narrower page is pinned by its style.
        let pin = width < 500 ? "<style>html{width:\(width)px;overflow:hidden}</style>" : ""
        let wrapped = """
            \(pin)<script>addEventListener("load", function () {
              var each = function (list, body) { Array.prototype.forEach.call(list, body); };
              var done = function (facts) { document.body.setAttribute("data-probe", facts.join("|")); };
              try {
              \(script)
              } catch (error) { done(["error=" + error]); }
            });</script>
            """
        page = page.replacingOccurrences(of: "</body>", with: wrapped + "</body>")
        let browser = try Browser(html: page)
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM(extraArguments: [
            "--virtual-time-budget=5000", "--window-size=\(max(width, 500)),900",
        ])
        let value = try #require(
            dom.range(of: #"data-probe="[^"]*""#, options: .regularExpression).map { String(dom[$0]) }, "the probe ran")
        var facts: [String: String] = [:]
        for pair in value.dropFirst("data-probe=\"".count).dropLast().split(separator: "|") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            facts[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return facts
    }

    /// Four levels of folders, 207 in all: more than the 80 pictures, so some folders open as lists.
    static func deepInventory() -> Inventory {
        var builder = InventoryBuilder()
        for a in 0..<3 {
            for b in 0..<4 {
                for c in 0..<4 {
                    for d in 0..<3 {
                        let folder = "Library/Application Support/top\(a)/mid\(b)/in\(c)/leaf\(d)"
                        builder.add(folder + "/data.sqlite", apparentBytes: Int64(400_000 + 9_000 * (a + b + c + d)))
                        builder.add(folder + "/photo.jpg", apparentBytes: 150_000)
                    }
                }
            }
        }
        return builder.build()
    }

    @Test("the report's map draws three folder levels and every folder tile opens something new", .needsChromium)
    func foldersOpenSomethingNew() throws {
        let html = TreemapBrowserTests.page(Self.deepInventory())
        let facts = try Self.probe(
            html,
            script: """
                var bad = [], pictures = 0, lists = 0, folders = 0, depth = 0, unclipped = 0;
                each(document.querySelectorAll("#map .tm-view"), function (view) {
                  each(view.querySelectorAll(".tm-d > a"), function (link) {
                    folders++;
                    var href = link.getAttribute("href") || "";
                    var target = href.charAt(0) === "#" ? document.getElementById(href.slice(1)) : null;
                    var name = link.querySelector("title").textContent.split("\\n")[0];
                    var strong = target ? target.querySelector(".tm-crumbs strong") : null;
                    if (!target || target === view || !strong || name.slice(-strong.textContent.length) !== strong.textContent) {
                      bad.push(view.id + ">" + href);
                    } else if (target.querySelector(".tm-svg")) { pictures++; }
                    else if (target.querySelector(".tm-list li")) { lists++; }
                    else { bad.push(view.id + ">" + href + " (empty)"); }
                  });
                });
                var first = document.querySelector("#map-0 .tm-svg");
                each(first.querySelectorAll("svg"), function (tile) {
                  if (getComputedStyle(tile).overflow !== "hidden") { unclipped++; }
                  if (!tile.classList.contains("tm-d")) { return; }
                  var levels = 0;
                  for (var node = tile; node && node !== first; node = node.parentNode) {
                    if (node.classList && node.classList.contains("tm-d")) { levels++; }
                  }
                  var box = tile.getBoundingClientRect();
                  if (box.width >= 1 && box.height >= 1) { depth = Math.max(depth, levels); }
                });
                var toList = document.querySelector("#map-0 .tm-d > a[href^='#map-l']");
                var listID = toList ? toList.getAttribute("href").slice(1) : "";
                if (toList) { toList.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window})); }
                setTimeout(function () {
                  var list = document.getElementById(listID);
                  done(["bad=" + bad.slice(0, 5).join(","), "folders=" + folders, "pictures=" + pictures, "lists=" + lists,
                    "depth=" + depth, "unclipped=" + unclipped,
                    "listShown=" + (list ? getComputedStyle(list).display !== "none" : "none"),
                    "firstShown=" + (getComputedStyle(document.getElementById("map-0")).display !== "none")]);
                }, 50);
                """)
        #expect(facts["bad"] == "", "every folder tile opens another view of that folder: \(facts)")
        #expect((Int(facts["folders"] ?? "") ?? 0) > 80, "\(facts)")
        #expect((Int(facts["pictures"] ?? "") ?? 0) > 0 && (Int(facts["lists"] ?? "") ?? 0) > 0, "\(facts)")
        #expect((Int(facts["depth"] ?? "") ?? 0) >= 3, "the first picture draws three folder levels: \(facts)")
        #expect(facts["unclipped"] == "0", "every tile clips its label: \(facts)")
        #expect(facts["listShown"] == "true" && facts["firstShown"] == "false", "a list opens alone: \(facts)")
    }

    @Test("on a phone, tapping a tile shows its path and size in the caption", .needsChromium)
    func tapShowsPathAndSize() throws {
        let html = TreemapBrowserTests.page(Self.deepInventory())
        let facts = try Self.probe(
            html, width: 390,
            script: """
                var caption = document.querySelector("#map .tm-cap"), before = caption.textContent;
                var tiles = document.querySelectorAll("#map-0 .tm-svg a"), tile = tiles[tiles.length - 1];
                tile.focus();
                var lines = tile.querySelector("title").textContent.split("\\n");
                done(["before=" + before, "after=" + caption.textContent, "path=" + lines[0], "size=" + lines[1],
                  "width=" + Math.round(document.querySelector("#map-0 .tm-svg").getBoundingClientRect().width)]);
                """)
        #expect(facts["error"] == nil && (Int(facts["width"] ?? "") ?? 9999) < 390, "the phone's width: \(facts)")
        let after = facts["after"] ?? ""
        #expect(after != facts["before"], "\(facts)")
        #expect(
            after.hasPrefix((facts["path"] ?? "-") + " · ") && after.hasSuffix(facts["size"] ?? "-"),
            "the caption names the tapped tile's path and size: \(facts)")
        #expect(after.contains("Library/Application Support/") || after.contains("…/"), "\(facts)")
    }

    @Test("diff: what grew and what shrank are drawn at one scale", .needsChromium)
    func diffSidesShareOneScale() throws {
        let reports = DiffCommandTests.shared
        let name = "map-\(UUID().uuidString).html"
        let result = try reports.diff(["r1", "r2", "--format", "html", "--output", name])
        try #require(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: reports.folder.path(name), encoding: .utf8)
        let facts = try Self.probe(
            html,
            script: """
                var out = [];
                each(document.querySelectorAll("#map-0 .tm-svg > svg > a"), function (link) {
                  var box = link.querySelector("rect").getBoundingClientRect();
                  var lines = link.querySelector("title").textContent.split("\\n");
                  out.push(lines[0] + "=" + (box.width * box.height) + ";" + lines[1].split(" · ")[0]);
                });
                done(out);
                """)
        /// The label's change in bytes: "+344 KB", "-98.3 KB" (decimal units).
        func bytes(_ figure: Substring) -> Double? {
            let parts = figure.dropFirst().split(separator: " ")
            let units = ["bytes": 1.0, "byte": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9]
            guard parts.count == 2, let value = Double(parts[0]), let unit = units[String(parts[1])] else { return nil }
            return value * unit
        }
        let sides = try ["Grew or new", "Shrank or removed"].map { side -> (area: Double, figure: Substring) in
            let fact = try #require(facts[side], "\(side) is drawn: \(facts)")
            let parts = fact.split(separator: ";")
            return (try #require(Double(parts[0])), parts[1])
        }
        #expect(sides[0].figure.hasPrefix("+") && sides[1].figure.hasPrefix("-"), "\(sides)")
        let grew = try #require(bytes(sides[0].figure))
        let shrank = try #require(bytes(sides[1].figure))
        // Figures are rounded to three digits, so the two scales agree to within a percent.
        let ratio = (sides[0].area / grew) / (sides[1].area / shrank)
        #expect(abs(ratio - 1) < 0.01, "pixels per byte on each side: \(ratio), \(sides)")
    }
}
