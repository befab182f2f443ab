import Foundation
import StocktakeModel
import StocktakeSQLite
import TestSupport
import Testing

@testable import StocktakeHistory
@testable import StocktakeNightly

/// Stores written by older stocktakes are brought forward; files this code cannot vouch for are refused
/// and left as they were.
@Suite struct HistorySchemaTests {
    @Test func aVersionOneStoreIsMigratedAndKeepsItsRuns() throws {
        let tree = try TemporaryTree("history")
        let path = HistoryStore.path(inReports: tree.root)
        do {
            // What a stocktake that knew only schema version 1 left behind, written as it would have.
            let old = try HistoryStore(path: path, createIfMissing: true, schemaVersion: 1)
            #expect(try old.userVersion() == 1)
            #expect(try tables(old) == ["run_locations", "runs"])
            try old.connection.execute(
                """
                INSERT INTO runs (bundle_identifier, run_id, generated_at, tool_version, app_version, status,
                    on_disk_files, on_disk_apparent_bytes, on_disk_allocated_bytes,
                    documents_and_data_files, documents_and_data_apparent_bytes, documents_and_data_allocated_bytes,
                    purgeable_files, purgeable_apparent_bytes, purgeable_allocated_bytes,
                    backed_up_bytes, excluded_bytes, unknown_backup_bytes, error_findings, warning_findings, note_findings)
                VALUES ('com.example.chat', '2026-10-01T020000Z', '2026-10-01T02:00:00Z', '0.0.9', '1.9', 'policyFailure',
                    10, 900, 4096, 4, 500, 2048, 6, 400, 2048, 1024, 2048, 1024, 1, 2, 3)
                """)
            try old.connection.execute(
                "INSERT INTO run_locations (run, location, files, apparent_bytes, allocated_bytes) VALUES (1, 'documents', 4, 500, 2048)"
            )
        }
        let store = try HistoryStore(path: path)
        #expect(try store.userVersion() == HistorySchema.currentVersion)
        #expect(try tables(store) == ["run_findings", "run_locations", "runs"])
        // The migration turns foreign keys off around its copy of `runs`, and back on: deleting a run deletes its rows.
        #expect(try store.connection.rows("PRAGMA foreign_keys", [], { $0.int(0) }) == [1])
        let run = try #require(try store.runs(bundleIdentifier: "com.example.chat", limit: 30).first)
        #expect(run.runID == "2026-10-01T020000Z" && run.appVersion == "1.9" && run.status == .policyFailure)
        #expect(run.onDisk == SizeTotal(files: 10, apparentBytes: 900, allocatedBytes: 4096))
        #expect(run.byLocation[.documents] == SizeTotal(files: 4, apparentBytes: 500, allocatedBytes: 2048))
        #expect(run.findingsBySeverity == [.error: 1, .warning: 2, .note: 3])
        #expect(run.findings.isEmpty, "version 1 did not keep findings per rule")
        // The migrated store takes new runs with everything.
        let next = HistoryFixtures.run("2026-10-02T020000Z", findings: [("tmp-leftovers", .warning)])
        try store.record(next)
        #expect(
            try store.runs(bundleIdentifier: "com.example.chat", limit: 30).map(\.runID) == [run.runID, next.runID])
        #expect(
            try store.runs(bundleIdentifier: "com.example.chat", limit: 1).first?.findingsByRule == ["tmp-leftovers": 1]
        )
    }

    @Test func aStoreFromANewerStocktakeIsRefusedUntouched() throws {
        let tree = try TemporaryTree("history")
        let path = HistoryStore.path(inReports: tree.root)
        do {
            let store = try HistoryStore(path: path)
            try store.connection.execute("PRAGMA user_version = 99")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path) }
        #expect(error.kind == .newerSchema)
        #expect(
            error.description.contains(
                "history store \(path) has schema version 99; this stocktake knows up to \(HistorySchema.currentVersion)"
            ))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFileThatIsNotADatabaseIsRefusedUntouched() throws {
        let tree = try TemporaryTree("history")
        let text = Array(String(repeating: "these are someone's notes, not a database\n", count: 40).utf8)
        try tree.write(HistoryStore.fileName, bytes: text)
        let path = tree.path(HistoryStore.fileName)
        let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path) }
        #expect(error.kind == .notAHistoryStore)
        #expect(error.description.contains("is not an SQLite database"))
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == text)
    }

    @Test func anotherProgramsDatabaseIsRefused() throws {
        let tree = try TemporaryTree("history")
        let path = tree.path(HistoryStore.fileName)
        do {
            let other = try SQLiteConnection(path: path, create: true)
            try other.execute("CREATE TABLE notes (body TEXT)")
        }
        let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path) }
        #expect(error.kind == .notAHistoryStore)
        #expect(error.description.contains("SQLite database of something else"))
    }

    @Test func migrationsAreNumberedInOrder() {
        #expect(HistorySchema.migrations.map(\.version) == Array(1...HistorySchema.migrations.count))
    }

    private func tables(_ store: HistoryStore) throws -> [String] {
        try store.connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            $0.text(0) ?? ""
        }
    }
}
