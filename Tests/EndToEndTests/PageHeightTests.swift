import Foundation
import TestSupport
import Testing

/// Pages that end: report.html's height at 1280 px in Chromium stays bounded however many files, findings and
/// unreadable entries the container holds (long lists start short, groups open on demand).
@Suite(.serialized) struct PageHeightTests {
    /// The page's full height in CSS pixels at `width`; the probe needs its own script, so the copy it loads drops
    /// the page's Content-Security-Policy.
    static func height(_ path: String, width: Int = 1280) throws -> Int {
        var html = try String(contentsOfFile: path, encoding: .utf8)
        html = html.replacingOccurrences(
            of: #"<meta http-equiv="Content-Security-Policy"[^>]*>"#, with: "", options: .regularExpression)
        let probe = """
            <script>addEventListener("load", function () {
              document.body.setAttribute("data-height", document.documentElement.scrollHeight);
            });</script>
            """
        html = html.replacingOccurrences(of: "</body>", with: probe + "</body>")
        let browser = try Browser(html: html)
        defer { browser.cleanUp() }
        let dom = try browser.dumpDOM(extraArguments: ["--window-size=\(width),900"])
        let value = try #require(
            dom.range(of: #"data-height="\d+""#, options: .regularExpression).map { String(dom[$0]) }, "the probe ran")
        return try #require(Int(value.dropFirst("data-height=\"".count).dropLast()))
    }

    @Test("the sample's report is at most 9,000 px tall at 1280", .needsChromium)
    func sample() throws {
        let height = try Self.height(FiguresConsistencyTests.shared.folder.path("r1/report.html"))
        #expect(height > 900 && height <= 9_000, "\(height) px")
    }

    /// Thousands of files in hundreds of folders, hundreds of findings in several rules, hundreds of stale
    /// AppleDouble sidecars and files of twenty kinds: every list of the page is long.
    @Test("a report of a few thousand hostile files is at most 14,000 px tall at 1280", .needsChromium)
    func generatedTree() throws {
        let tree = try TemporaryTree("tall")
        let kinds =
            ["jpg", "png", "mp4", "json", "sqlite", "plist", "txt", "pdf", "zip", "heic"]
            + ["m4a", "webp", "gif", "bin", "db", "log", "xml", "html", "css", "js"]
        for chat in 0..<200 {
            for file in 0..<10 {
                try tree.write(
                    "Library/Application Support/Chats/c\(chat)/m\(file).\(kinds[(chat + file) % kinds.count])",
                    bytes: [UInt8](repeating: UInt8(truncatingIfNeeded: chat * 10 + file), count: 100 + file * 50))
            }
        }
        for i in 0..<300 {
            try tree.write("Documents/store\(i).sqlite-journal", string: String(repeating: "j", count: 100))
            try tree.write("Library/._ghost\(i)", bytes: [0, 5, 22, 7] + [UInt8](repeating: 0, count: 60))
        }
        for i in 0..<200 {
            try tree.write("tmp/job\(i)/part.dat", string: String(repeating: "p", count: 300))
            try tree.write("Library/stray\(i).json", string: "{}")
        }
        for i in 0..<100 {
            try tree.write("Library/Caches/.trash-\(i)/f.bin", string: String(repeating: "z", count: 500))
            try tree.write("Documents/copy\(i).bin", string: String(repeating: "same-content", count: 100))
        }
        let out = try TemporaryTree("tall-out")
        let audit = try StocktakeProcess.run(["audit", tree.root, "--output", out.path("r"), "--format", "json,html"])
        try #require([0, 2].contains(audit.status), "\(audit.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("r/report.json"))))
                as? [String: Any])
        // The page has long lists to cut: many findings in several rules, and hundreds of unreadable entries.
        let findings = report["findings"] as? [Any] ?? []
        #expect(findings.count >= 500, "\(findings.count) findings")
        #expect((report["issues"] as? [Any] ?? []).count >= 100)
        let height = try Self.height(out.path("r/report.html"))
        #expect(height > 900 && height <= 14_000, "\(height) px")
    }
}
