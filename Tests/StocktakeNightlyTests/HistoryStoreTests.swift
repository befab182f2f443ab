import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeSQLite
import TestSupport
import Testing

@testable import StocktakeHistory
@testable import StocktakeNightly

/// Recording and reading runs back, as the nightly job and `stocktake history` use the store.
@Suite struct HistoryStoreTests {
    @Test func aRecordedRunReadsBackIdentically() throws {
        let fixture = try StoreFixture()
        let run = HistoryFixtures.run(
            "2026-11-21T020000Z",
            findings: [("documents-hidden-data", .warning), ("tmp-leftovers", .error), ("tmp-leftovers", .note)])
        try fixture.store.record(run)
        #expect(try fixture.store.runs(bundleIdentifier: HistoryFixtures.chat, limit: 30) == [run])
        // And from a second connection, as another process would see it.
        let reopened = try HistoryStore(path: fixture.store.path, createIfMissing: false)
        let back = try #require(try reopened.runs(bundleIdentifier: HistoryFixtures.chat, limit: 1).first)
        withExtendedLifetime(fixture) {}
        #expect(back == run)
        #expect(
            back.findings == [
                FindingCount(rule: "documents-hidden-data", severity: .warning, count: 1),
                FindingCount(rule: "tmp-leftovers", severity: .note, count: 1),
                FindingCount(rule: "tmp-leftovers", severity: .error, count: 1),
            ])
    }

    @Test func textIsBoundNotSpliced() throws {
        let fixture = try StoreFixture()
        // Quotes, SQL and a NUL would break or inject if the SQL were built from values.
        let hostile = "com.evil'); DROP TABLE runs; --\u{0}\"x"
        func run(_ bundleIdentifier: String) -> HistoryRun {
            HistoryRun(
                bundleIdentifier: bundleIdentifier, runID: "2026-11-21T020000Z", generatedAt: "2026-11-21T02:00:00Z",
                toolVersion: "0.1.0", appVersion: "",
                onDisk: SizeTotal(files: 1, apparentBytes: .max, allocatedBytes: .max), documentsAndData: .zero,
                purgeable: .zero, byLocation: [:], backedUpBytes: 0, excludedBytes: 0, unknownBackupBytes: 0,
                findingsBySeverity: [:], findings: [], status: .clean)
        }
        try fixture.store.record(run(hostile))
        #expect(try fixture.store.bundleIdentifiers() == [hostile], "bound whole, no truncation at the NUL")
        // Read back, the NUL is refused as every reader refuses it (issue 41): no store keeps what PostgreSQL refuses.
        let error = try #require(throws: HistoryError.self) {
            try fixture.store.runs(bundleIdentifier: hostile, limit: 5)
        }
        #expect(error.message.contains("holds the control character U+0000"))
        #expect(
            try fixture.store.runs(bundleIdentifier: "com.evil'); DROP TABLE runs; --", limit: 5).isEmpty,
            "no truncation at the NUL")
        let quoted = "com.evil'); DROP TABLE runs; --\"x"
        try fixture.store.record(run(quoted))
        #expect(
            try fixture.store.runs(bundleIdentifier: quoted, limit: 5) == [run(quoted)],
            "empty strings stay empty, not NULL; Int64.max survives")
    }

    @Test func recordingTheSameRunAgainReplacesIt() throws {
        let fixture = try StoreFixture()
        try fixture.store.record(
            HistoryFixtures.run("2026-11-21T020000Z", onDisk: 1_000_000, findings: [("tmp-leftovers", .error)]))
        let rerun = HistoryFixtures.run(
            "2026-11-21T020000Z", onDisk: 2_000_000, status: .policyFailure,
            findings: [("documents-hidden-data", .warning)])
        try fixture.store.record(rerun)
        #expect(try fixture.store.runs(bundleIdentifier: HistoryFixtures.chat, limit: 30) == [rerun])
        #expect(
            try rowCount("run_locations", fixture.store) == Location.allCases.count,
            "no rows left from the first recording")
        #expect(try rowCount("run_findings", fixture.store) == 1)
    }

    @Test func theLastRunsComeOldestFirstPerApp() throws {
        let fixture = try StoreFixture()
        // Recorded out of order, with another app's runs in between.
        for (day, size) in [(3, 300), (1, 100), (5, 500), (2, 200), (4, 400)] {
            try fixture.store.record(HistoryFixtures.run("2026-11-0\(day)T020000Z", onDisk: Int64(size) * 1000))
            try fixture.store.record(
                HistoryFixtures.run("2026-11-0\(day)T020000Z", bundleIdentifier: "com.example.maps"))
        }
        let lastThree = try fixture.store.runs(bundleIdentifier: HistoryFixtures.chat, limit: 3)
        #expect(lastThree.map(\.runID) == ["2026-11-03T020000Z", "2026-11-04T020000Z", "2026-11-05T020000Z"])
        #expect(lastThree.map(\.onDisk.allocatedBytes) == [300_000, 400_000, 500_000])
        #expect(try fixture.store.runs(bundleIdentifier: HistoryFixtures.chat, limit: 30).count == 5)
        #expect(try fixture.store.runIDs(bundleIdentifier: HistoryFixtures.chat).first == "2026-11-01T020000Z")
        #expect(try fixture.store.runs(bundleIdentifier: "com.example.unknown", limit: 30).isEmpty)
        #expect(try fixture.store.bundleIdentifiers() == ["com.example.chat", "com.example.maps"])
    }

    @Test func aReaderDoesNotCreateAStore() throws {
        let tree = try TemporaryTree("history")
        let path = HistoryStore.path(inReports: tree.root)
        let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path, createIfMissing: false) }
        #expect(error.kind == .missing)
        #expect(error.description.contains("\(path) does not exist"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    private func rowCount(_ table: String, _ store: HistoryStore) throws -> Int {
        try store.connection.rows("SELECT count(*) FROM \(table)") { $0.int(0) }.first ?? -1
    }
}

/// The nightly job and a reader are separate processes on one file: a lock held for a moment makes the
/// other side wait (the busy timeout), not fail with "database is locked".
@Suite struct HistoryStoreLockingTests {
    @Test func aWriterWaitsForALockHeldElsewhere() throws {
        let fixture = try StoreFixture()
        let other = try SQLiteConnection(path: fixture.store.path, create: false)
        try other.execute("BEGIN EXCLUSIVE")
        // SQLite connections are safe to use from another thread (serialized mode); this one ends its
        // transaction shortly, while `record` below is waiting.
        nonisolated(unsafe) let holder = other
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { try? holder.execute("COMMIT") }
        let run = HistoryFixtures.run("2026-11-21T020000Z")
        try fixture.store.record(run)
        #expect(try fixture.store.runs(bundleIdentifier: HistoryFixtures.chat, limit: 1) == [run])
    }

    @Test func repeatedFindingCountsAreMergedNotRejected() throws {
        let fixture = try StoreFixture()
        let base = HistoryFixtures.run("2026-11-21T020000Z")
        let run = HistoryRun(
            bundleIdentifier: base.bundleIdentifier, runID: base.runID, generatedAt: base.generatedAt,
            toolVersion: base.toolVersion,
            appVersion: nil, onDisk: base.onDisk, documentsAndData: base.documentsAndData, purgeable: base.purgeable,
            byLocation: base.byLocation, backedUpBytes: 0, excludedBytes: 0, unknownBackupBytes: 0,
            findingsBySeverity: [.warning: 3],
            findings: [
                FindingCount(rule: "tmp-leftovers", severity: .warning, count: 1),
                FindingCount(rule: "tmp-leftovers", severity: .warning, count: 2),
            ],
            status: .clean)
        #expect(run.findings == [FindingCount(rule: "tmp-leftovers", severity: .warning, count: 3)])
        try fixture.store.record(run)
        #expect(
            try fixture.store.runs(bundleIdentifier: HistoryFixtures.chat, limit: 1).first?.findingsByRule == [
                "tmp-leftovers": 3
            ])
    }
}
