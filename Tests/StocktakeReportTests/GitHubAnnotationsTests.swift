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
                ::error title=documents-hidden-data in the container at Documents/a "quoted" & 'single'%0Aline.txt::\
                50%25 done, see: here%0D%0A::error::pwned | *bold* _it_ `code` <b>x</b> ]]> @octocat ␁\u{FFFD} [link](http://x) $x$
                """)
        #expect(!GitHubAnnotationsWriter().render(Self.report).contains("\r"), "no raw carriage return anywhere")
    }

    @Test func propertiesEscapeColonsAndCommas() {
        #expect(
            Self.lines.contains(
                "::notice title=tmp-leftovers in the container at Documents/#frag ?q=%2541 ünï.txt::A note, with: commas"
            ))
        let tricky = FindingsReport.finding("tmp-leftovers", .warning, "tmp/a,title=x::y:z%", "m")
        let rendered = GitHubAnnotationsWriter().render(FindingsReport.with([tricky]))
        #expect(rendered == "::warning title=tmp-leftovers in the container at tmp/a%2Ctitle=x%3A%3Ay%3Az%25::m\n")
        let anchored = GitHubAnnotationsWriter { "Exports/X.xcappdata/" + $0 }.render(FindingsReport.with([tricky]))
        #expect(anchored == "::warning file=Exports/X.xcappdata/tmp/a%2Ctitle=x%3A%3Ay%3Az%25,title=tmp-leftovers::m\n")
    }

    @Test func bidiControlsAndTheRootAreHandled() {
        #expect(
            Self.lines.contains(
                "::warning title=documents-hidden-data in the container at Documents/invoice\u{FFFD}fdp.exe::Reads backwards"
            ))
        #expect(
            Self.lines.contains("::error title=budget-exceeded::The container is over its 10 MB budget"),
            "no file for the root")
    }

    @Test("a file is named only where the repository has it; the others carry their path in the title")
    func fileOnlyWhereTheRepositoryHasIt() {
        let inRepository = "Documents/Exports"
        let writer = GitHubAnnotationsWriter { $0 == inRepository ? "Samples/App.xcappdata/" + $0 : nil }
        let lines = writer.render(Self.report).split(separator: "\n")
        let named = lines.filter { $0.contains("file=") }
        #expect(named.count == 1 && named[0].hasPrefix("::warning file=Samples/App.xcappdata/Documents/Exports,title="))
        #expect(
            lines.filter { $0.contains(" in the container at ") }.count == lines.count - 2, "all but it and the root")
    }

    @Test func noFindingsPrintNothing() {
        #expect(GitHubAnnotationsWriter().render(FindingsReport.with([])).isEmpty)
    }
}
