import StocktakeModel
import StocktakeSQLite
import TestSupport
import Testing

@testable import StocktakeHistory

/// What only the SQLite store has: stores left by every earlier schema version (the contract itself is held in
/// `HistoryContractTests`).
@Suite struct SQLiteContractTests {
    /// A store left by version 2 (before sources): its runs keep every figure and join the default source.
    @Test func aVersionTwoStoreIsMigratedAndKeepsItsRuns() throws {
        let store = try SQLiteUnderTest(schemaVersion: 2)
        try store.execute(
            """
            INSERT INTO runs (bundle_identifier, run_id, generated_at, tool_version, app_version, status,
                on_disk_files, on_disk_apparent_bytes, on_disk_allocated_bytes,
                documents_and_data_files, documents_and_data_apparent_bytes, documents_and_data_allocated_bytes,
                purgeable_files, purgeable_apparent_bytes, purgeable_allocated_bytes,
                backed_up_bytes, excluded_bytes, unknown_backup_bytes, error_findings, warning_findings, note_findings)
            VALUES ('com.example.chat', '2026-11-20T020000Z', '2026-11-20T02:00:00Z', '0.1.0', NULL, 'policyFailure',
                3, 5000, 8192, 2, 3000, 4096, 1, 2000, 4096, 4096, 0, 0, 1, 0, 0)
            """)
        try store.execute(
            "INSERT INTO run_locations (run, location, files, apparent_bytes, allocated_bytes) SELECT id, 'documents', 2, 3000, 4096 FROM runs"
        )
        try store.execute(
            "INSERT INTO run_findings (run, rule, severity, count) SELECT id, 'tmp-leftovers', 'error', 1 FROM runs")
        let migrated = try store.reopen()
        let runs = try migrated.runs(of: RunSeries(bundleIdentifier: HistoryContract.chat), limit: 5)
        let run = try #require(runs.first)
        #expect(runs.count == 1)
        #expect(run.status == .policyFailure)
        #expect(run.onDisk == SizeTotal(files: 3, apparentBytes: 5000, allocatedBytes: 8192))
        #expect(run.byLocation[.documents] == SizeTotal(files: 2, apparentBytes: 3000, allocatedBytes: 4096))
        #expect(run.findings == [FindingCount(rule: "tmp-leftovers", severity: .error, count: 1)])
        #expect(run.source == RunSeries.defaultSource && run.recordedBy == nil && run.durationSeconds == nil)
        // The migrated store takes a second source for the same run id: the uniqueness moved to (app, source, run).
        try migrated.record(HistoryContract.run("2026-11-20T020000Z", source: "farm-ipad"))
        #expect(try migrated.series().count == 2)
        #expect(try store.rowCount("run_locations") == 1 + Location.allCases.count)
    }
}

final class SQLiteUnderTest: HistoryUnderTest {
    let tree: TemporaryTree
    let store: HistoryStore
    var history: any RunHistory { store }

    init(schemaVersion: Int = HistorySchema.currentVersion) throws {
        tree = try TemporaryTree("history")
        store = try HistoryStore(
            path: HistoryStore.path(inReports: tree.root), createIfMissing: true, schemaVersion: schemaVersion)
    }

    func reopen() throws -> any RunHistory { try HistoryStore(path: store.path, createIfMissing: false) }

    func rowCount(_ table: String) throws -> Int {
        try store.connection.rows("SELECT count(*) FROM \(table)", [], { $0.int(0) }).first ?? -1
    }

    func columns() throws -> [String: [String]] {
        var tables: [String: [String]] = [:]
        for object in try HistorySchema.objects(in: store.connection) where object.type == "table" {
            tables[object.name] = object.columns
        }
        return tables
    }

    func execute(_ sql: String) throws { try store.connection.execute(sql) }

    func setVersion(_ version: Int) throws { try store.connection.execute("PRAGMA user_version = \(version)") }
}
