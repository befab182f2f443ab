import Foundation
import TestSupport
import Testing

/// The pages as a phone shows them (390 CSS pixels, an iPhone's width): nothing scrolls sideways and nothing
/// sticks out of the page. Headless Chromium will not open a window narrower than 500 pixels, so the probe
/// pins the page itself to 390 pixels (the ≤ 600 px phone layout applies at both widths) and counts the
/// boxes that scroll sideways and the elements whose right edge passes 390. The probe needs its own script,
/// so the copy it loads drops the page's Content-Security-Policy; the page's markup and style are unchanged.
@Suite(.serialized) struct PhoneWidthTests {
    static let width = 390

    /// `sideways` boxes that scroll sideways, `outside` elements past the right edge, and the first few of them.
    static func measure(_ path: String) throws -> (sideways: Int, outside: Int, examples: String) {
        var html = try String(contentsOfFile: path, encoding: .utf8)
        html = html.replacingOccurrences(
            of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, with: "", options: .regularExpression)
        let probe = """
            <style>html{width:\(width)px;overflow:hidden}</style><script>addEventListener("load", function () {
              var all = document.querySelectorAll("body *");
              var sideways = [].filter.call(all, function (e) {
                return e.scrollWidth > e.clientWidth + 2 && ["auto", "scroll"].indexOf(getComputedStyle(e).overflowX) >= 0; });
              // Past the edge and not cut off by a box that clips (overflow hidden, as the treemap's tiles are).
              var clipped = function (e) {
                for (var a = e.parentElement; a && a !== document.body; a = a.parentElement) {
                  var o = getComputedStyle(a).overflowX;
                  if ((o === "hidden" || o === "clip") && a.getBoundingClientRect().right <= \(width + 1)) return true;
                }
                return false; };
              var outside = [].filter.call(all, function (e) { var r = e.getBoundingClientRect(); return r.width > 0 && r.right > \(width + 1) && !clipped(e); });
              var name = function (e) { return e.tagName + "." + e.className; };
              document.body.setAttribute("data-probe", sideways.length + " " + outside.length + " " +
                sideways.concat(outside).slice(0, 4).map(name).join(","));
            });</script>
            """
        html = html.replacingOccurrences(of: "</body>", with: probe + "</body>")
        let browser = try Browser(html: html)
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM(extraArguments: ["--window-size=500,900"])
        let value = try #require(
            dom.range(of: #"data-probe="[^"]*""#, options: .regularExpression).map { String(dom[$0]) }, "the probe ran")
        let fields = value.dropFirst("data-probe=\"".count).dropLast().split(
            separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        return (Int(fields[0]) ?? -1, Int(fields[1]) ?? -1, fields.count > 2 ? String(fields[2]) : "")
    }

    @Test(
        "report, diff and nightly pages fit a phone's width", .needsChromium,
        arguments: [
            "r1/report.html", "r2/report.html", "diff.html", "nightly/index.html",
        ])
    func fitsAPhone(page: String) throws {
        let measured = try Self.measure(FiguresConsistencyTests.shared.folder.path(page))
        #expect(measured.sideways == 0 && measured.outside == 0, "\(page): \(measured)")
    }

    @Test("the probe sees a page that does not fit (the same report without its phone layout)", .needsChromium)
    func probeCanFail() throws {
        let folder = FiguresConsistencyTests.shared.folder
        let page = try String(contentsOfFile: folder.path("r1/report.html"), encoding: .utf8)
        let unstacked = page.replacingOccurrences(of: "<table data-stack", with: "<table")
        try unstacked.write(toFile: folder.path("unstacked.html"), atomically: true, encoding: .utf8)
        #expect(try Self.measure(folder.path("unstacked.html")).outside > 0)
    }

    @Test("every finding's fix is text on the page, not only a tooltip")
    func fixesAreText() throws {
        let folder = FiguresConsistencyTests.shared.folder
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("r1/report.json"))))
                as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        let collapse = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let text = collapse(try FiguresConsistencyTests.Views.pageText(folder.path("r1/report.html")))
        for finding in findings {
            let fix = collapse(try #require(finding["fix"] as? String))
            #expect(text.contains("Fix: " + fix), "\(finding["rule"] ?? "") at \(finding["path"] ?? "")")
        }
    }
}
