import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeHistory

@Suite struct RunMetricsTests {
    static let job = RunMetrics.Job(
        name: "nightly", durationSeconds: 12.3456, finishedAt: 1_795_226_500, failures: 1, exitStatus: 1,
        source: "farm-a")

    @Test func everyFamilyIsAGaugeWithHelpTypeAndUnitAndTheFileEnds() {
        let text = RunMetrics(runs: [HistoryContract.run("2026-11-21T020000Z")], job: Self.job).render()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(text.hasSuffix("# EOF\n"))
        let families = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        #expect(families.count == 12)
        for family in families {
            #expect(lines.contains("# TYPE \(family) gauge"))
            #expect(lines.contains { $0.hasPrefix("# HELP \(family) ") })
            if family.hasSuffix("_bytes") { #expect(lines.contains("# UNIT \(family) bytes")) }
            if family.hasSuffix("_seconds") { #expect(lines.contains("# UNIT \(family) seconds")) }
        }
        #expect(text.contains("stocktake_on_disk_bytes{app=\"com.example.chat\",source=\"default\"} 1000000\n"))
        #expect(text.contains("stocktake_run_duration_seconds{app=\"com.example.chat\",source=\"default\"} 12.5\n"))
        #expect(
            text.contains(
                "stocktake_last_success_timestamp_seconds{app=\"com.example.chat\",source=\"default\"} 1795226400\n"))
        #expect(text.contains("stocktake_job_duration_seconds{command=\"nightly\",source=\"farm-a\"} 12.346\n"))
        #expect(text.contains("stocktake_job_exit_status{command=\"nightly\",source=\"farm-a\"} 1\n"))
        // Never a sample timestamp: node_exporter's textfile collector refuses them.
        for line in lines where !line.hasPrefix("#") && !line.isEmpty {
            #expect(line.split(separator: " ").count == 2, "\(line)")
        }
    }

    /// The latest run of each app and source, once; a series with no duration has no duration sample.
    @Test func oneSamplePerSeriesTheLatestWins() {
        let older = HistoryContract.run("2026-11-20T020000Z", onDisk: 1_000)
        let newer = HistoryContract.run("2026-11-21T020000Z", onDisk: 2_000)
        let other = HistoryRun(
            bundleIdentifier: "com.example.mail", runID: "x", generatedAt: "not a time", toolVersion: "0.1.0",
            appVersion: nil, onDisk: .zero, documentsAndData: .zero, purgeable: .zero, byLocation: [:],
            backedUpBytes: 0, excludedBytes: 0, unknownBackupBytes: 0, findingsBySeverity: [:], findings: [],
            status: .clean)
        let text = RunMetrics(runs: [older, newer, other], job: nil).render()
        let onDisk = text.split(separator: "\n").filter { $0.hasPrefix("stocktake_on_disk_bytes{") }
        #expect(
            onDisk == [
                "stocktake_on_disk_bytes{app=\"com.example.chat\",source=\"default\"} 2000",
                "stocktake_on_disk_bytes{app=\"com.example.mail\",source=\"default\"} 0",
            ])
        #expect(!text.contains("stocktake_run_duration_seconds{app=\"com.example.mail\""))
        #expect(!text.contains("stocktake_last_success_timestamp_seconds{app=\"com.example.mail\""))
        #expect(!text.contains("stocktake_job_"))
    }

    /// A bundle id is read from the container: quotes, backslashes and line breaks stay inside their label.
    @Test func hostileAppNamesStayInsideTheirLabel() throws {
        let hostile = "com.evil\"} 1\nstocktake_on_disk_bytes{app=\"x\\"
        let text = RunMetrics(runs: [HistoryContract.run("r", app: hostile)], job: nil).render()
        #expect(text.contains("app=\"com.evil\\\"} 1\\nstocktake_on_disk_bytes{app=\\\"x\\\\\""))
        #expect(!text.contains("app=\"x\""))
        try MetricsOracle.check(text)
    }

    @Test func numbersAreWrittenAsTheFormatWantsThem() {
        #expect(RunMetrics.number(0) == "0")
        #expect(RunMetrics.number(1_795_226_400) == "1795226400")
        #expect(RunMetrics.number(0.0004) == "0.0")
        #expect(RunMetrics.number(2.5) == "2.5")
        #expect(RunMetrics.number(.infinity) == "+Inf" && RunMetrics.number(.nan) == "NaN")
    }
}

@Suite struct ISO8601SecondsTests {
    @Test func reportTimesBecomeSecondsSince1970() {
        #expect(ISO8601Seconds.parse("1970-01-01T00:00:00Z") == 0)
        #expect(ISO8601Seconds.parse("2026-11-21T02:00:00Z") == 1_795_226_400)
        #expect(ISO8601Seconds.parse("2000-02-29T12:30:15.5Z") == 951_827_415.5)
        #expect(ISO8601Seconds.parse("2026-11-21 02:00:00") == nil)
        #expect(ISO8601Seconds.parse("2026-13-21T02:00:00Z") == nil)
        // The same rules as a property list's dates (one parser): no 30 February, no 61st second, nine digits at most.
        #expect(ISO8601Seconds.parse("2026-02-30T02:00:00Z") == nil)
        #expect(ISO8601Seconds.parse("2026-11-21T02:00:60Z") == nil)
        #expect(ISO8601Seconds.parse("2026-11-21T02:00:00.123456789Z") == 1_795_226_400.123456789)
        #expect(ISO8601Seconds.parse("2026-11-21T02:00:00.1234567890Z") == nil)
    }
}
