import StocktakeModel
import StocktakePolicy
import Testing

@testable import StocktakeHistory
@testable import StocktakeNightly

/// A run as the history keeps it, from the report it was read from.
@Suite struct HistoryRunTests {
    @Test func totalsBackupAndFindingsComeFromTheSnapshot() {
        let run = HistoryRun(
            bundleIdentifier: "com.example.chat", runID: "2026-11-21T020000Z",
            snapshot: HistoryFixtures.snapshot(
                onDisk: 800_000,
                findings: [
                    ("documents-hidden-data", .warning), ("documents-hidden-data", .warning), ("tmp-leftovers", .error),
                ]),
            status: .policyFailure)
        #expect(run.generatedAt == "2026-11-21T02:00:00Z")
        #expect(run.appVersion == "2.1" && run.toolVersion == "0.1.0")
        #expect(run.onDisk.allocatedBytes == 800_000 && run.documentsAndData.allocatedBytes == 400_000)
        #expect(run.purgeable.allocatedBytes == 100_000)
        #expect(run.backedUpBytes == 4096)
        #expect(run.excludedBytes == 8192 + 100_000, "flagged plus excluded by location")
        #expect(run.unknownBackupBytes == 12_288)
        #expect(run.byLocation.count == Location.allCases.count, "every location, zero where empty")
        #expect(run.byLocation[.tmp] == .zero && run.byLocation[.documents]?.allocatedBytes == 200_000)
        #expect(run.findingsBySeverity == [.error: 1, .warning: 2, .note: 0])
        #expect(run.findingsByRule == ["documents-hidden-data": 2, "tmp-leftovers": 1])
        #expect(run.status == .policyFailure)
    }

    @Test func changeSincePreviousIsSignedWithAPercentage() {
        #expect(RunSizeChange(before: 1_000_000, after: 1_250_000).text(bytes: ByteCount.format) == "+250 KB (+25.0%)")
        #expect(RunSizeChange(before: 2_000_000, after: 1_500_000).text(bytes: ByteCount.format) == "-500 KB (-25.0%)")
        #expect(RunSizeChange(before: 5, after: 5).text(bytes: ByteCount.format) == "unchanged")
        #expect(RunSizeChange(before: 0, after: 4096).percentText == "new")
        #expect(RunSizeChange(before: 10_000_000, after: 10_000_001).percentText == "+<0.1%")
        #expect(RunSizeChange(before: .min, after: .max).delta == .max, "saturates instead of trapping")
    }
}
