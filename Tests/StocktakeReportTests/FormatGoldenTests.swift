import Foundation
import StocktakeReport
import Testing

/// Each CI format of the synthetic report with findings must match its committed golden file byte for
/// byte. After an intended change, regenerate with
/// `STOCKTAKE_RECORD_GOLDEN=1 swift test --disable-xctest --filter FormatGoldenTests` and review the diff
/// of `Golden/synthetic-*`.
@Suite struct FormatGoldenTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test(arguments: [ReportFormat.sarif, .junit, .markdown, .github, .ncdu])
    func matchesGoldenFile(_ format: ReportFormat) throws {
        let url = Self.golden.appendingPathComponent("synthetic-" + format.fileName)
        let rendered = Data(try FindingsReport.rendered(format))
        if ProcessInfo.processInfo.environment["STOCKTAKE_RECORD_GOLDEN"] == "1" {
            try rendered.write(to: url, options: .atomic)
            return
        }
        let golden = try #require(try? Data(contentsOf: url), "missing \(url.path); record it with STOCKTAKE_RECORD_GOLDEN=1")
        if rendered != golden {
            let first = zip(rendered, golden).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(rendered.count, golden.count)
            let context = String(decoding: rendered.dropFirst(max(0, first - 80)).prefix(200), as: UTF8.self)
            Issue.record("""
                \(format.rawValue) differs from \(url.lastPathComponent) at byte \(first) \
                (rendered \(rendered.count) bytes, golden \(golden.count)). Rendered around there:
                \(context)
                """)
        }
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
