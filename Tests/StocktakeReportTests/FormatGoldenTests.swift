import Foundation
import StocktakeReport
import TestSupport
import Testing

/// Each CI format of the synthetic report with findings must match its committed golden file byte for
/// byte. After an intended change, regenerate with
/// `STOCKTAKE_RECORD_GOLDEN=1 swift test --disable-xctest --filter FormatGoldenTests` and review the diff
/// of `Golden/synthetic-*`.
@Suite struct FormatGoldenTests {
    static let golden = "Tests/StocktakeReportTests/Golden/"

    @Test(arguments: [ReportFormat.sarif, .junit, .markdown, .github, .ncdu])
    func matchesGoldenFile(_ format: ReportFormat) throws {
        try Golden.check(
            Data(try FindingsReport.rendered(format)), against: Self.golden + "synthetic-" + format.fileName)
    }

    @Test func renderingIsDeterministic() throws {
        for format in [ReportFormat.sarif, .junit, .markdown, .github, .ncdu] {
            #expect(try FindingsReport.rendered(format) == FindingsReport.rendered(format), "\(format.rawValue)")
        }
    }

    @Test func destinations() {
        #expect(ReportFormat.github.destination == .standardOutput)
        #expect(ReportFormat.sarif.destination == .file("report.sarif"))
        #expect(ReportFormat.junit.destination == .file("report.junit.xml"))
        #expect(ReportFormat.markdown.destination == .file("summary.md"))
        #expect(ReportFormat.ncdu.destination == .file("report.ncdu.json"))
        #expect(ReportFormat.json.destination == .file("report.json"))
        let files = ReportFormat.allCases.compactMap { format -> String? in
            if case .file(let name) = format.destination { return name } else { return nil }
        }
        #expect(Set(files).count == files.count, "no two formats write the same file")
    }
}
