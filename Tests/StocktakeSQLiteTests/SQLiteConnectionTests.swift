import Foundation
import StocktakeSQLite
import TestSupport
import Testing

/// The SQLite wrapper as the history store and the backup reader lean on it: values only ever bound, a
/// transaction all or nothing, someone else's database opened without a byte written beside it, and work
/// bounded by steps, by value length and by a deadline.
@Suite struct SQLiteConnectionTests {
    static func store(_ tree: TemporaryTree, _ name: String = "s.db") throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: tree.path(name), create: true)
        try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, data BLOB)")
        return connection
    }

    @Test func boundValuesComeBackAsWritten() throws {
        let tree = try TemporaryTree("sqlite")
        let db = try Self.store(tree)
        let hostile = "x'); DROP TABLE t; --\u{0} é"
        try db.execute("INSERT INTO t (name, data) VALUES (?, X'0001FF')", [.text(hostile)])
        try db.execute("INSERT INTO t (name, data) VALUES (?, ?)", [.optionalText(nil), .null])
        let rows = try db.rows("SELECT name, data FROM t ORDER BY id") { ($0.text(0), $0.bytes(1)) }
        #expect(rows.count == 2)
        #expect(rows[0].0 == hostile)
        #expect(rows[0].1 == [0, 1, 255])
        #expect(rows[1].0 == nil)
        #expect(db.lastInsertedRowID == 2)
    }

    @Test func aFailedTransactionLeavesNothing() throws {
        let tree = try TemporaryTree("sqlite")
        let db = try Self.store(tree)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.transaction(writing: true) {
                try db.execute("INSERT INTO t (name) VALUES (?)", [.text("half")])
                throw Stop()
            }
        }
        #expect(try db.rows("SELECT count(*) FROM t") { $0.int(0) } == [0])
        try db.transaction(writing: true) { try db.execute("INSERT INTO t (name) VALUES (?)", [.text("whole")]) }
        #expect(try db.rows("SELECT name FROM t") { $0.text(0) } == ["whole"])
    }

    /// A backup's Manifest.db is read where it lies: no journal, no `-shm`, no lock file, no changed byte, and
    /// a path with `?`, `#` and `%` in it is a path, not a URI's query.
    @Test func anImmutableReadWritesNothingBesideTheFile() throws {
        let tree = try TemporaryTree("sqlite")
        try tree.mkdir("odd ?#% folder")
        let path = "odd ?#% folder/Manifest.db"
        do {
            let db = try Self.store(tree, path)
            try db.execute("INSERT INTO t (name) VALUES ('kept')")
        }
        let before = TreeSnapshot(tree.root)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tree.path(path)))
        let reader = try SQLiteConnection(readingImmutable: tree.path(path))
        #expect(try reader.rows("SELECT name FROM t") { $0.text(0) } == ["kept"])
        #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t (name) VALUES ('no')") }
        #expect(TreeSnapshot(tree.root) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: tree.path(path))) == bytes)
    }

    @Test func aRefusedWriteIsAConstraintFailure() throws {
        let tree = try TemporaryTree("sqlite")
        let db = try Self.store(tree)
        try db.execute("INSERT INTO t (id, name) VALUES (1, 'first')")
        let error = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t (id, name) VALUES (1, 'again')") }
        #expect(error?.kind == .constraint, "\(String(describing: error))")
    }

    @Test func aStepLimitInterruptsEndlessWork() throws {
        let tree = try TemporaryTree("sqlite")
        let db = try Self.store(tree)
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
        #expect(throws: SQLiteError.self) {
            try db.withStepLimit(100_000) { _ = try db.rows(endless) { $0.int(0) } }
        }
        // The limit ends with its body: the connection works again.
        #expect(try db.rows("SELECT 1") { $0.int(0) } == [1])
    }

    @Test func aDeadlineInterruptsEndlessWork() throws {
        let tree = try TemporaryTree("sqlite")
        let db = try SQLiteConnection(path: tree.path("d.db"), create: true, timeLimit: .milliseconds(200))
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
        #expect(throws: SQLiteError.self) {
            try db.withDeadline { _ = try db.rows(endless) { $0.int(0) } }
        }
    }

    @Test func aValueLongerThanTheLimitIsRefusedBeforeItIsCopied() throws {
        let tree = try TemporaryTree("sqlite")
        let db = try Self.store(tree)
        try db.execute("INSERT INTO t (data) VALUES (zeroblob(100000))")
        db.limitValueLength(to: 1000)
        #expect(try db.rows("SELECT length(data) FROM t") { $0.int(0) } == [100_000])
        #expect(throws: SQLiteError.self) { _ = try db.rows("SELECT data FROM t") { $0.bytes(0) } }
    }

    @Test func aFileThatIsNotADatabaseSaysSo() throws {
        let tree = try TemporaryTree("sqlite")
        try tree.write("junk.db", string: String(repeating: "not a database ", count: 100))
        let error = #expect(throws: SQLiteError.self) {
            let db = try SQLiteConnection(readingImmutable: tree.path("junk.db"))
            _ = try db.rows("SELECT name FROM sqlite_master") { $0.text(0) }
        }
        #expect(error?.description.contains("not a database") == true, "\(String(describing: error))")
        #expect(error?.kind == .notADatabase)
    }
}
