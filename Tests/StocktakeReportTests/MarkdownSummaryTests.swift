import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

@Suite struct MarkdownSummaryTests {
    static let markdown = MarkdownSummaryWriter().render(FindingsReport.make())

    @Test func hostileTextStaysInItsCell() throws {
        let row = try #require(Self.markdown.split(separator: "\n").first { $0.contains("pwned") })
        #expect(row.hasPrefix("| Documents/a \"quoted\" &amp; 'single'␊line.txt | "))
        #expect(
            row.contains(
                " | 50% done, see: here␍␊::error::pwned \\| \\*bold\\* \\_it\\_ \\`code\\` &lt;b&gt;x&lt;/b&gt; \\]\\]&gt; @\u{2060}octocat ␁\u{FFFD} \\[link\\](http://x) \\$x\\$"
            ))
        for line in Self.markdown.split(separator: "\n") where line.hasPrefix("| Documents/") {
            #expect(MarkdownTable.cellSeparators(line) == 4, "three cells (path, bytes, message): \(line)")
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
        #expect(
            Self.markdown.contains(
                "Container /exports/Demo \"&lt;i&gt;x&lt;/i&gt;\" &amp; co.xcappdata/AppData (xcappdata)"))
        #expect(Self.markdown.contains("| On disk | 20.2 MB | 75 entries |"))
        #expect(Self.markdown.contains("| Documents &amp; Data |"))
        #expect(Self.markdown.contains("| Backed up |") && Self.markdown.contains("| Purgeable |"))
        #expect(Self.markdown.contains("| Documents | 9.9 MB | 11 |"))
        let errors = report.findings.count { $0.severity == .error }
        #expect(Self.markdown.contains("**Findings:** \(errors) errors,"))
        #expect(Self.markdown.hasSuffix(MarkdownSummaryWriter.defaultFullReportsLine + "\n"))
    }

    @Test func listsAtMostFiftyFindingsMostSevereFirst() throws {
        var findings = (0..<60).map { FindingsReport.finding("tmp-leftovers", .note, "tmp/n\($0)", "note \($0)") }
        findings.append(FindingsReport.finding("large-backed-up-file", .error, "Documents/zzz.bin", "big"))
        let markdown = MarkdownSummaryWriter().render(FindingsReport.with(findings))
        let rows = markdown.split(separator: "\n").filter {
            $0.hasPrefix("| tmp/n") || $0.hasPrefix("| Documents/zzz.bin ")
        }
        #expect(rows.count == 50)
        #expect(rows.first?.hasPrefix("| Documents/zzz.bin |") == true)
        #expect(markdown.contains("| large-backed-up-file | error | 1 |"), "the rule table ranks the error first")
        #expect(markdown.contains("11 more in the full reports."))
        #expect(MarkdownSummaryWriter().render(FindingsReport.with([])).contains("**Findings:** none."))
    }
}
