import Foundation
import StocktakeSQLite
import TestSupport
import Testing

@testable import StocktakeHistory
@testable import StocktakeNightly

/// Issue 10, F5: a history store is a file anyone with access to the reports folder can edit. One whose
/// `runs` is a view over an endless recursive query hung `history` and the nightly job (which then kept
/// its lock, so every later cron run exited 75); a trigger ran unseen on every write. The schema is
/// checked before any query, and every query runs under a deadline.
@Suite struct HostileStoreTests {
    /// `runs` replaced by a view with the same columns that never ends (it filters an endless count).
    static let endlessRunsView = """
        CREATE VIEW runs AS WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever)
        SELECT \((["id"] + RunRow.columns).map { "n AS \($0)" }.joined(separator: ", ")) FROM forever WHERE n = 0
        """

    /// A store written by this stocktake, then changed by `statements` through another connection.
    private func store(_ statements: [String]) throws -> (path: String, tree: TemporaryTree) {
        let tree = try TemporaryTree("history")
        let path = HistoryStore.path(inReports: tree.root)
        try HistoryStore(path: path).record(HistoryFixtures.run("2026-11-20T020000Z"))
        let other = try SQLiteConnection(path: path, create: false)
        for statement in statements { try other.execute(statement) }
        return (path, tree)
    }

    private func refusal(_ path: String) throws -> HistoryError {
        try #require(throws: HistoryError.self) { try HistoryStore(path: path, createIfMissing: false) }
    }

    @Test func aViewInPlaceOfATableIsRefusedBeforeAnyQuery() throws {
        let fixture = try store(["DROP TABLE runs", Self.endlessRunsView])
        let error = try refusal(fixture.path)
        #expect(error.kind == .notAHistoryStore)
        #expect(
            error.description.hasPrefix(
                "history store \(fixture.path) is not a history store this stocktake can read: `runs` is a view, not a table"
            ))
    }

    @Test func aTriggerIsRefusedAndTheStoreLeftUntouched() throws {
        let fixture = try store(["CREATE TRIGGER wipe AFTER INSERT ON runs BEGIN DELETE FROM run_locations; END"])
        let before = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        let error = try refusal(fixture.path)
        #expect(error.kind == .notAHistoryStore)
        #expect(error.message.contains("it has a trigger `wipe`, which a history store never has"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == before)
    }

    @Test func columnsAndObjectsAreThoseTheMigrationsMake() throws {
        let extraColumn = try store(["ALTER TABLE runs ADD COLUMN note TEXT"])
        #expect(
            try refusal(extraColumn.path).message.contains(
                "table `runs` does not have the expected columns (unexpected note)"))
        let extraView = try store(["CREATE VIEW recent AS SELECT * FROM runs"])
        #expect(
            try refusal(extraView.path).message.contains("it has a view `recent` that a history store does not have"))
        let missingTable = try store(["DROP TABLE run_findings"])
        #expect(try refusal(missingTable.path).message.contains("it has no table `run_findings`"))
    }

    /// A version 1 store is checked against what version 1 had, before it is migrated (and so changed).
    @Test func anOlderStoreIsCheckedBeforeItIsMigrated() throws {
        let tree = try TemporaryTree("history")
        let path = HistoryStore.path(inReports: tree.root)
        do {
            let old = try HistoryStore(path: path, createIfMissing: true, schemaVersion: 1)
            try old.connection.execute("CREATE TRIGGER wipe AFTER INSERT ON runs BEGIN DELETE FROM run_locations; END")
        }
        #expect(try refusal(path).message.contains("it has a trigger `wipe`"))
        let version = try SQLiteConnection(path: path, create: false).rows("PRAGMA user_version") { $0.int(0) }
        #expect(version == [1], "refused before any migration ran")
    }

    @Test func everyQueryRunsUnderADeadline() throws {
        let tree = try TemporaryTree("history")
        let store = try HistoryStore(
            path: HistoryStore.path(inReports: tree.root), createIfMissing: true,
            schemaVersion: HistorySchema.currentVersion,
            timeLimit: .milliseconds(200))
        let started = ContinuousClock.now
        let error = try #require(throws: HistoryError.self) {
            try store.guarded("read") {
                try store.connection.rows(
                    "WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT count(*) FROM forever"
                ) {
                    $0.int(0)
                }
            }
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(error.description.contains("could not be read: it took longer than 0.2 seconds"))
        // The connection is usable again afterwards: the deadline belonged to that operation only.
        #expect(try store.runs(bundleIdentifier: "com.example.chat", limit: 5).isEmpty)
    }
}
