import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

@Suite struct GitHubAnnotationsTests {
    static let report = FindingsReport.make()
    static let lines = GitHubAnnotationsWriter().render(report).split(separator: "\n", omittingEmptySubsequences: false)
        .dropLast()

    @Test func oneCommandPerFindingMostSevereFirst() {
        #expect(Self.lines.count == Self.report.findings.count)
        let order = Self.lines.map { String($0.split(separator: " ").first ?? "") }
        let errors = Self.report.findings.count { $0.severity == .error }
        let warnings = Self.report.findings.count { $0.severity == .warning }
        #expect(
            order == Array(repeating: "::error", count: errors) + Array(repeating: "::warning", count: warnings)
                + Array(repeating: "::notice", count: Self.report.findings.count - errors - warnings))
    }

    @Test func hostileMessageCannotStartAnotherCommand() {
        let line = Self.lines.first { $0.contains("pwned |") }
        #expect(
            line == """
                ::error file=Documents/a "quoted" & 'single'%0Aline.txt,title=documents-hidden-data::\
                50%25 done, see: here%0D%0A::error::pwned | *bold* _it_ `code` <b>x</b> ]]> @octocat ␁\u{FFFD} [link](http://x) $x$
                """)
        #expect(!GitHubAnnotationsWriter().render(Self.report).contains("\r"), "no raw carriage return anywhere")
    }

    @Test func propertiesEscapeColonsAndCommas() {
        #expect(
            Self.lines.contains(
                "::notice file=Documents/#frag ?q=%2541 ünï.txt,title=tmp-leftovers::A note, with: commas"))
        let tricky = FindingsReport.finding("tmp-leftovers", .warning, "tmp/a,title=x::y:z%", "m")
        let rendered = GitHubAnnotationsWriter().render(FindingsReport.with([tricky]))
        #expect(rendered == "::warning file=tmp/a%2Ctitle=x%3A%3Ay%3Az%25,title=tmp-leftovers::m\n")
    }

    @Test func bidiControlsAndTheRootAreHandled() {
        #expect(
            Self.lines.contains(
                "::warning file=Documents/invoice\u{FFFD}fdp.exe,title=documents-hidden-data::Reads backwards"))
        #expect(
            Self.lines.contains("::error title=budget-exceeded::The container is over its 10 MB budget"),
            "no file for the root")
    }

    @Test func noFindingsPrintNothing() {
        #expect(GitHubAnnotationsWriter().render(FindingsReport.with([])).isEmpty)
    }
}
