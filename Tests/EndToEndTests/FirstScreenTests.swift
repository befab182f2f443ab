import Foundation
import TestSupport
import Testing

/// The verdict (passed or failed, by which gate) is on the first screen a reader sees: the top 900 CSS pixels
/// at a laptop's width (1280) and a phone's (390, pinned as `PhoneWidthTests` pins it, since headless Chromium
/// opens no window narrower than 500).
@Suite(.serialized) struct FirstScreenTests {
    static let screenHeight = 900

    /// Where the verdict's headline ends below the top of the page, and its text; the probe needs its own
    /// script, so the copy it loads drops the page's Content-Security-Policy.
    static func verdict(_ path: String, width: Int) throws -> (bottom: Int, text: String) {
        var html = try String(contentsOfFile: path, encoding: .utf8)
        html = html.replacingOccurrences(
            of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, with: "", options: .regularExpression)
        let pin = width < 500 ? "<style>html{width:\(width)px;overflow:hidden}</style>" : ""
        let probe = """
            \(pin)<script>addEventListener("load", function () {
              var head = document.querySelector("#verdict .v-head");
              var bottom = head ? Math.ceil(head.getBoundingClientRect().bottom + window.scrollY) : -1;
              document.body.setAttribute("data-probe", bottom + " " + (head ? head.textContent.replace(/\\s+/g, " ") : ""));
            });</script>
            """
        html = html.replacingOccurrences(of: "</body>", with: probe + "</body>")
        let browser = try Browser(html: html)
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM(extraArguments: ["--window-size=\(max(width, 500)),\(screenHeight)"])
        let value = try #require(
            dom.range(of: #"data-probe="[^"]*""#, options: .regularExpression).map { String(dom[$0]) }, "the probe ran")
        let fields = value.dropFirst("data-probe=\"".count).dropLast().split(separator: " ", maxSplits: 1)
        return (Int(fields.first ?? "") ?? -1, fields.count > 1 ? String(fields[1]) : "")
    }

    @Test(
        "report, diff and nightly pages state their verdict on the first screen", .needsChromium,
        arguments: ["r1/report.html", "diff.html", "nightly/index.html"], [1280, 390])
    func verdictFirst(page: String, width: Int) throws {
        let measured = try Self.verdict(FiguresConsistencyTests.shared.folder.path(page), width: width)
        #expect(measured.bottom > 0 && measured.bottom <= Self.screenHeight, "\(page) at \(width) px: \(measured)")
        #expect(
            ["Passed", "Failed", "No gate"].contains { measured.text.hasPrefix($0) }, "\(page): \(measured.text)")
    }

    @Test("the sample's report states the failing gate and the worst finding's fix at the top")
    func reportVerdictText() throws {
        let text = try Self.text("r1/report.html")
        let verdict = try #require(text.range(of: "Failed --fail-on error : 1 error at or above error"))
        let summary = try #require(text.range(of: "Summary Allocated sizes"))
        #expect(verdict.lowerBound < summary.lowerBound)
        #expect(text[verdict.upperBound..<summary.lowerBound].contains("Fix: Give session cookies no expiry"))
    }

    @Test("the diff's verdict names the folders that grew most")
    func diffVerdictText() throws {
        let text = try Self.text("diff.html")
        let verdict = try #require(text.range(of: "given). +"))
        let mostly = try #require(text.range(of: ", mostly ", range: verdict.upperBound..<text.endIndex))
        #expect(text[mostly.upperBound...].hasPrefix("Library/ Application Support/ Models ( +"))
    }

    /// The page's text with every run of white space made one space.
    static func text(_ page: String) throws -> String {
        try FiguresConsistencyTests.Views.pageText(FiguresConsistencyTests.shared.folder.path(page))
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("the probe sees a verdict pushed below the first screen", .needsChromium)
    func probeCanFail() throws {
        let folder = FiguresConsistencyTests.shared.folder
        let page = try String(contentsOfFile: folder.path("r1/report.html"), encoding: .utf8)
        let verdict = try #require(
            page.range(of: #"<section id="verdict"[\s\S]*?</section>\n"#, options: .regularExpression))
        var moved = page
        moved.removeSubrange(verdict)
        moved = moved.replacingOccurrences(of: "</main>", with: page[verdict] + "</main>")
        try moved.write(toFile: folder.path("verdict-last.html"), atomically: true, encoding: .utf8)
        for width in [1280, 390] {
            #expect(try Self.verdict(folder.path("verdict-last.html"), width: width).bottom > Self.screenHeight)
        }
    }
}
