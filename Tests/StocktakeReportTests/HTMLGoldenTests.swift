import Foundation
import TestSupport
import Testing

/// The synthetic report must render to the committed page byte for byte. After an intended change,
/// regenerate with `STOCKTAKE_RECORD_GOLDEN=1 swift test --disable-xctest --filter HTMLGoldenTests`
/// and review the diff of `Golden/synthetic-report.html`.
@Suite struct HTMLGoldenTests {
    @Test func syntheticReportMatchesGoldenFile() throws {
        try Golden.check(SyntheticReport.html(), against: "Tests/StocktakeReportTests/Golden/synthetic-report.html")
    }
}
