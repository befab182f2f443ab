import Foundation
import TestSupport
import Testing

/// The pages without any script, the diff page and the nightly index, written by the binary and opened in
/// headless Chromium: the DOM the browser built must hold the hostile names as inert text (no element,
/// no handler renaming the page) and the essentials a reader looks for. Skipped without Chromium (see
/// `Browser`). One browser at a time: the suite already runs the binary and the sample generator.
@Suite(.serialized) struct StaticPageBrowserTests {
    static let imageName = "<img src=x onerror=document.title='pwned'>"
    static let svgName = "<svg onload=document.title='pwned'>"
    /// The two names as the browser serialises text.
    static let imageText = "&lt;img src=x onerror=document.title='pwned'&gt;"
    static let svgText = "&lt;svg onload=document.title='pwned'&gt;"

    @Test("the diff page of the two sample versions: static, with the totals and the moved database", .needsChromium)
    func sampleDiffPage() throws {
        let reports = DiffCommandTests.shared
        let name = "browser-\(UUID().uuidString).html"
        let result = try reports.diff(["r1", "r2", "--format", "html", "--output", name])
        try #require(result.status == 0, "\(result.stderr)")
        let dom = try Self.dom(of: reports.folder.path(name))

        #expect(DOM.documentTitle(dom) == "Stocktake diff: com.example.chat 14.2.0 → 14.3.0")
        Self.expectStatic(dom, charts: 0)
        #expect(dom.contains(">On disk</td>"), "the On disk row is on the page")
        let moved = try #require(Self.section(dom, from: "<h3>Moved", to: "<h3>"), "the page lists moved files")
        #expect(Self.withoutBreaks(moved).contains("Documents/chat-index.sqlite</td>"))
        #expect(
            Self.withoutBreaks(moved).contains("Library/Application Support/Search/chat-index.sqlite</td>"),
            "the moved database")
        let removed = try #require(Self.section(dom, from: "<h3>Removed", to: "</section>"))
        #expect(Self.withoutBreaks(removed).contains("Documents/debug.log"))
    }

    @Test("hostile file names on the diff page stay text", .needsChromium)
    func hostileNamesOnDiffPage() throws {
        let tree = try TemporaryTree("browser-diff")
        for side in ["old", "new"] {
            try tree.write("\(side)/Documents/notes.txt", string: "hello\n")
            try tree.write(
                "\(side)/Library/Preferences/com.example.hostile.plist",
                string: "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>")
            try tree.mkdir("\(side)/tmp")
        }
        try tree.write("new/Documents/\(Self.imageName).jpg", string: String(repeating: "jpeg", count: 5_000))
        try tree.write("new/Library/Caches/\(Self.svgName)", string: String(repeating: "svg", count: 3_000))
        for (side, epoch) in [("old", "1795226400"), ("new", "1795312800")] {
            let audit = try StocktakeProcess.run(
                ["audit", side, "--output", "r-\(side)", "--quiet"], currentDirectory: tree.root,
                environment: ["SOURCE_DATE_EPOCH": epoch])
            try #require([0, 2].contains(audit.status), "\(audit.stderr)")
        }
        let result = try StocktakeProcess.run(
            ["diff", "r-old", "r-new", "--format", "html", "--output", "diff.html"], currentDirectory: tree.root)
        try #require(result.status == 0, "\(result.stderr)")
        let dom = try Self.dom(of: tree.path("diff.html"))

        #expect(
            DOM.documentTitle(dom) == "Stocktake diff: com.example.hostile ? → ?",
            "no injected handler renamed the page")
        Self.expectStatic(dom, charts: 0)
        let files = try #require(Self.section(dom, from: "<h3>Added", to: "</section>"), "the page lists added files")
        #expect(files.contains(Self.imageText + ".jpg"), "the hostile names are shown as text")
        #expect(files.contains(Self.svgText))
        #expect(dom.contains(">On disk</td>"))
    }

    @Test(
        "the nightly index: a hostile inbox entry is listed as text, the app links to its latest report", .needsChromium
    )
    func nightlyIndexPage() throws {
        let farm = try NightlyJobTests.Farm()
        try farm.export(version: 1)
        try farm.tree.write("inbox/\(Self.imageName)/readme.txt", string: "not a container\n")
        let night = try farm.night(0, NightlyJobTests.config)
        #expect(night.status == 1, "the entry that is not a container is an error: \(night.stdout)\(night.stderr)")
        let dom = try Self.dom(of: farm.reports + "/index.html")

        #expect(DOM.documentTitle(dom) == "Stocktake nightly", "no injected handler renamed the page")
        Self.expectStatic(dom, charts: 1)
        let failures = try #require(
            Self.section(dom, from: "id=\"failures\"", to: "</section>"), "the page lists failed inputs")
        #expect(failures.contains(">" + Self.imageText + "</td>"), "the failed input is shown as text")

        let run = NightlyJobTests.runIDs[0]
        #expect(farm.latest() == run)
        let link = "com.example.chat/\(run)/report.html"
        #expect(dom.contains("<a href=\"\(link)\">Latest report</a>"), "the app links to its latest report")
        #expect(FileManager.default.fileExists(atPath: farm.reports + "/" + link), "the link leads to the report")
    }

    /// Loads the file in Chromium and returns the DOM it built.
    static func dom(of path: String) throws -> String {
        let browser = try Browser(pageAt: path)
        defer { browser.cleanUp() }
        return try browser.dumpDOM()
    }

    /// No script and no image element anywhere, and SVG only for the page's own chart(s) and treemap.
    static func expectStatic(_ dom: String, charts: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(DOM.rootTag(dom) == "<html lang=\"en\">", sourceLocation: sourceLocation)
        #expect(!dom.contains("pwned</title>"), sourceLocation: sourceLocation)
        #expect(!dom.contains("<script"), "the page has no script at all", sourceLocation: sourceLocation)
        #expect(!dom.contains("<img"), "no image element was injected", sourceLocation: sourceLocation)
        let svgs = DOM.svgTags(dom)
        #expect(
            svgs.allSatisfy { $0.contains(" class=\"") }, "every svg is the page's own (it carries a class)",
            sourceLocation: sourceLocation)
        #expect(
            svgs.filter { !DOM.isTreemapPart($0) }.count == charts, "SVG only for the charts and the treemap",
            sourceLocation: sourceLocation)
    }

    /// The DOM from the first `start` to the next `end` after it.
    static func section(_ dom: String, from start: String, to end: String) -> Substring? {
        guard let first = dom.range(of: start) else { return nil }
        let stop = dom.range(of: end, range: first.upperBound..<dom.endIndex)?.lowerBound ?? dom.endIndex
        return dom[first.lowerBound..<stop]
    }

    /// Paths are printed with `<wbr>` after each slash so they can wrap; the text a reader sees has none.
    static func withoutBreaks(_ html: Substring) -> String {
        html.replacingOccurrences(of: "<wbr>", with: "")
    }
}
