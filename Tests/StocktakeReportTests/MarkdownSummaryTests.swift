import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

@Suite struct MarkdownSummaryTests {
    static let markdown = MarkdownSummaryWriter().render(FindingsReport.make())

    @Test func hostileTextStaysInItsCell() throws {
        let row = try #require(Self.markdown.split(separator: "\n").first { $0.contains("pwned") })
        #expect(row == """
            | error | documents-hidden-data | Documents/a "quoted" &amp; 'single'␊line.txt | 50% done, see: here␍␊::error::pwned \\| \
            \\*bold\\* \\_it\\_ \\`code\\` &lt;b&gt;x&lt;/b&gt; \\]\\]&gt; @\u{2060}octocat ␁\u{FFFD} \\[link\\](http://x) \\$x\\$ |
            """)
        for line in Self.markdown.split(separator: "\n") where line.hasPrefix("| ") && line.contains("documents-hidden-data") {
            #expect(MarkdownTable.cellSeparators(line) == 5, "four cells: \(line)")
        }
    }

    @Test func namesCannotBecomeHTMLOrReadBackwards() {
        #expect(Self.markdown.contains("| Documents/&lt;img src=x onerror=document.title='pwned'&gt;.jpg |"))
        #expect(Self.markdown.contains("| Documents/invoice\u{FFFD}fdp.exe |"))
        #expect(!Self.markdown.contains("<img") && !Self.markdown.contains("<svg") && !Self.markdown.contains("<b>"))
        #expect(!Self.markdown.unicodeScalars.contains { $0.value == 0x202E || $0.value == 1 })
    }

    @Test func showsContainerTotalsLocationsAndWhereTheReportsAre() {
        let report = FindingsReport.make()
        #expect(Self.markdown.hasPrefix("### Stocktake: com.example.stocktake-demo\n"))
        #expect(Self.markdown.contains("Container /exports/Demo \"&lt;i&gt;x&lt;/i&gt;\" &amp; co.xcappdata/AppData (xcappdata)"))
        #expect(Self.markdown.contains("| Allocated on disk | 20.2 MB | 75 |"))
        #expect(Self.markdown.contains("| Documents &amp; Data |"))
        #expect(Self.markdown.contains("| Backed up |") && Self.markdown.contains("| Purgeable (Caches, tmp) |"))
        #expect(Self.markdown.contains("| Documents | 9.9 MB | 11 |"))
        let errors = report.findings.count { $0.severity == .error }
        #expect(Self.markdown.contains("**Findings:** \(errors) errors,"))
        #expect(Self.markdown.hasSuffix(MarkdownSummaryWriter.defaultFullReportsLine + "\n"))
    }

    @Test func listsAtMostFiftyFindingsMostSevereFirst() throws {
        var findings = (0..<60).map { FindingsReport.finding("tmp-leftovers", .note, "tmp/n\($0)", "note \($0)") }
        findings.append(FindingsReport.finding("large-backed-up-file", .error, "Documents/zzz.bin", "big"))
        let markdown = MarkdownSummaryWriter().render(FindingsReport.with(findings))
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| note ") || $0.hasPrefix("| error ") }
        #expect(rows.count == 50)
        #expect(rows.first?.hasPrefix("| error | large-backed-up-file | Documents/zzz.bin | big |") == true)
        #expect(markdown.contains("11 more not shown here."))
        #expect(MarkdownSummaryWriter().render(FindingsReport.with([])).contains("**Findings:** none."))
    }
}
