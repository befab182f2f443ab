import StocktakePolicy
import StocktakeReport
import Testing

/// Findings at scale: grouped by rule and ranked, a few rows per group, the rest on demand, and the overview
/// still at the top of the page.
@Suite struct FindingsHTMLTests {
    static func page(_ findings: [Finding]) -> String { HTMLReportWriter().render(FindingsReport.with(findings)) }

    @Test("a thousand findings of one rule are one group: count, bytes at stake, five rows, the rest behind 'more'")
    func oneRuleIsOneGroup() throws {
        let findings = (0..<1_000).map {
            FindingsReport.finding(
                "redownloadable-in-backup", .warning, "Library/Application Support/c/\($0)", "m\($0)",
                bytes: Int64($0) * 4096)
        }
        let html = Self.page(findings)
        let section = try #require(
            html.components(separatedBy: "<section id=\"findings\"").dropFirst().first?.components(
                separatedBy: "</section>"
            ).first)
        #expect(section.components(separatedBy: "<details class=\"fgroup\"").count - 1 == 1)
        #expect(section.contains("1,000 findings · <span title=\"2,045,952,000 bytes\">2.0 GB</span> at stake"))
        // Ranked by bytes: the largest first, and only five before the fold.
        let shown = try #require(section.components(separatedBy: "<details class=\"fmore\">").first)
        #expect(shown.components(separatedBy: "<li>").count - 1 == 5)
        #expect(shown.contains("c/<wbr>999</span>") && !shown.contains("c/<wbr>0</span>"))
        #expect(section.contains("<summary>195 more</summary>"), "200 rows are written per group")
        #expect(section.contains("800 more are listed in the JSON report."))
    }

    @Test("the three rules most at stake start open; the others start closed, their summaries still in view")
    func laterGroupsStartClosed() throws {
        let rules = ["tmp-leftovers", "sqlite-sidecar", "library-root-file", "documents-hidden-data", "symlink-escape"]
        let findings = rules.enumerated().map { rank, rule in
            FindingsReport.finding(rule, .warning, "Library/f\(rank)", "m\(rank)", bytes: Int64(10 - rank) * 4096)
        }
        let html = Self.page(findings)
        let groups = html.components(separatedBy: "<details class=\"fgroup\"").dropFirst()
        #expect(groups.map { $0.hasPrefix(" open>") } == [true, true, true, false, false])
        for (rank, rule) in rules.enumerated() {
            let summary = try #require(groups.dropFirst(rank).first?.components(separatedBy: "</summary>").first)
            #expect(summary.contains("<code class=\"muted\">\(rule)</code>") && summary.contains("1 finding"))
        }
    }

    @Test("the overview comes first, then the findings, then the details")
    func overviewFirst() throws {
        let html = Self.page((0..<300).map { FindingsReport.finding("tmp-leftovers", .note, "tmp/\($0)", "m") })
        let summary = try #require(html.range(of: "<section id=\"summary\""))
        let findings = try #require(html.range(of: "<section id=\"findings\""))
        let locations = try #require(html.range(of: "<section id=\"locations\""))
        #expect(summary.lowerBound < findings.lowerBound && findings.lowerBound < locations.lowerBound)
    }
}
