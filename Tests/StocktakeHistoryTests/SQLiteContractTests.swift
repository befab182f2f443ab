import StocktakeSQLite
import TestSupport
import Testing

@testable import StocktakeHistory

/// The history contract on the SQLite file beside one machine's reports.
@Suite struct SQLiteContractTests {
    @Test func aRecordedRunReadsBackIdentically() throws {
        try HistoryContract.aRecordedRunReadsBackIdentically(try SQLiteUnderTest())
    }

    @Test func recordingTheSameRunAgainReplacesIt() throws {
        try HistoryContract.recordingTheSameRunAgainReplacesIt(try SQLiteUnderTest())
    }

    @Test func theSameRunIDFromTwoSourcesIsTwoRuns() throws {
        try HistoryContract.theSameRunIDFromTwoSourcesIsTwoRuns(try SQLiteUnderTest())
    }

    @Test func runsComeOldestFirstAndLimited() throws {
        try HistoryContract.runsComeOldestFirstAndLimited(try SQLiteUnderTest())
    }

    @Test func textIsBoundNotSpliced() throws {
        try HistoryContract.textIsBoundNotSpliced(try SQLiteUnderTest())
    }

    @Test func everyEngineTakesTheSameRuns() throws {
        try HistoryContract.everyEngineTakesTheSameRuns(try SQLiteUnderTest())
    }

    @Test func aNewStoreHasTheSchemaSQLiteMakes() throws {
        try HistoryContract.aNewStoreHasTheSchemaSQLiteMakes(try SQLiteUnderTest())
    }

    @Test func aVersionTwoStoreIsMigratedAndKeepsItsRuns() throws {
        try HistoryContract.aVersionTwoStoreIsMigratedAndKeepsItsRuns(try SQLiteUnderTest(schemaVersion: 2))
    }

    @Test func aReaderNeverSeesHalfARun() throws {
        try HistoryContract.aReaderNeverSeesHalfARun(try SQLiteUnderTest())
    }

    @Test func aStoreFromANewerStocktakeIsRefusedUntouched() throws {
        try HistoryContract.aStoreFromANewerStocktakeIsRefusedUntouched(try SQLiteUnderTest())
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

    func reopen(schemaVersion: Int) throws -> any RunHistory {
        try HistoryStore(path: store.path, createIfMissing: false, schemaVersion: schemaVersion)
    }

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
