import Foundation
import Testing

/// The synthetic report must render to the committed page byte for byte. After an intended change,
/// regenerate with `STOCKTAKE_RECORD_GOLDEN=1 swift test --disable-xctest --filter HTMLGoldenTests`
/// and review the diff of `Golden/synthetic-report.html`.
@Suite struct HTMLGoldenTests {
    static let goldenURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Golden/synthetic-report.html")

    @Test func syntheticReportMatchesGoldenFile() throws {
        let html = SyntheticReport.html()
        if ProcessInfo.processInfo.environment["STOCKTAKE_RECORD_GOLDEN"] == "1" {
            try Data(html.utf8).write(to: Self.goldenURL, options: .atomic)
            return
        }
        let golden = try #require(
            try? Data(contentsOf: Self.goldenURL),
            "missing \(Self.goldenURL.path); record it with STOCKTAKE_RECORD_GOLDEN=1")
        let rendered = Data(html.utf8)
        if rendered != golden {
            let firstDifference = zip(rendered, golden).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(rendered.count, golden.count)
            let context = String(decoding: rendered.dropFirst(max(0, firstDifference - 80)).prefix(200), as: UTF8.self)
            Issue.record("""
                The page differs from Golden/synthetic-report.html at byte \(firstDifference) \
                (rendered \(rendered.count) bytes, golden \(golden.count)). Rendered around there:
                \(context)
                """)
        }
    }
}
