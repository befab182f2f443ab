import CSQLite3

/// What SQLite reported when a call failed: its result code and its own message (`sqlite3_errmsg`).
struct SQLiteError: Error {
    let code: Int32
    let message: String
}

/// One connection to an SQLite file. Not `Sendable`: a store object is used from one thread, and other
/// processes (the nightly writer, a reader) coordinate through SQLite's file locks and the busy timeout.
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// How long a statement waits for another process's lock before failing with "database is locked".
    /// The nightly job's transactions are small, so a reader rarely waits at all.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// How long one `withDeadline` body may run before SQLite interrupts it (`SQLITE_INTERRUPT`). A store's
    /// real queries take milliseconds (plus at most the busy timeout); a hostile one (a view over an endless
    /// recursive query) would otherwise hang `history`, and hang the nightly job while it holds its lock.
    let timeLimit: Duration
    /// When the running body must stop; nil outside `withDeadline`.
    private var deadline: ContinuousClock.Instant?

    init(path: String, create: Bool, timeLimit: Duration = .seconds(30)) throws {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw SQLiteError(code: status, message: message)
        }
        handle = opened
        self.timeLimit = timeLimit
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        // Called every 1,000 virtual-machine steps of any statement: a non-zero answer interrupts it.
        sqlite3_progress_handler(handle, 1_000, { context in
            guard let context else { return 0 }
            return Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue().isPastDeadline ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private var isPastDeadline: Bool { deadline.map { ContinuousClock.now > $0 } ?? false }

    /// Runs `body` with every statement bounded by `timeLimit` from now (an outer deadline, if any, stays).
    func withDeadline<T>(_ body: () throws -> T) rethrows -> T {
        guard deadline == nil else { return try body() }
        deadline = ContinuousClock.now + timeLimit
        defer { deadline = nil }
        return try body()
    }

    deinit { sqlite3_close_v2(handle) }

    /// A statement for `sql`, which holds `?` placeholders for every value: values are only ever bound.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw lastError(status)
        }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ values: [SQLiteValue] = []) throws {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Every row of a query, each turned into a value by `row`.
    func rows<Row>(
        _ sql: String, _ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> Row
    ) throws -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// Runs `body` in one transaction: all of it is committed, or none of it. A writing transaction takes
    /// the write lock up front (`BEGIN IMMEDIATE`, waiting out the busy timeout), so two writers never
    /// deadlock half-way; a reading one sees one consistent state of the file.
    func transaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        try execute(writing ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the row the last successful `INSERT` on this connection added.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    func lastError(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}
