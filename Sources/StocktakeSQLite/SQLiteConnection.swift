import CSQLite3
import StocktakeModel

/// What SQLite reported when a call failed: its kind (so only this module sees C result codes) and its message.
package struct SQLiteError: Error, CustomStringConvertible {
    package enum Kind: Sendable {
        /// Another connection holds the lock (past the busy timeout).
        case busy
        /// A step or time limit interrupted the statement.
        case interrupted
        /// A value over the connection's length limit (`limitValueLength`) was read.
        case tooBig
        /// The file is not an SQLite database (no header: encrypted, or something else).
        case notADatabase
        case corrupt
        /// A constraint (unique, foreign key, not null, check) refused a write.
        case constraint
        case other
    }

    package let kind: Kind
    package let message: String

    init(code: Int32, message: String) {
        // The primary result code is the low byte; extended codes add detail above it.
        kind =
            switch code & 0xFF {
            case SQLITE_BUSY, SQLITE_LOCKED: .busy
            case SQLITE_INTERRUPT: .interrupted
            case SQLITE_TOOBIG: .tooBig
            case SQLITE_NOTADB: .notADatabase
            case SQLITE_CORRUPT: .corrupt
            case SQLITE_CONSTRAINT: .constraint
            default: .other
            }
        self.message = message
    }

    package var description: String { message }
}

/// One connection to an SQLite file. Not `Sendable`: used from one thread; processes coordinate through SQLite's
/// file locks and the busy timeout.
package final class SQLiteConnection {
    private let handle: OpaquePointer

    /// How long a statement waits for another process's lock (the nightly job's transactions are small).
    package static let busyTimeoutMilliseconds: Int32 = 10_000

    /// How long one `withDeadline` body may run before SQLite interrupts it: real queries take milliseconds, and a
    /// hostile store (a view over an endless recursive query) would otherwise hang the nightly job holding its lock.
    package let timeLimit: Duration
    /// When the running body must stop; nil outside `withDeadline`.
    private var deadline: ContinuousClock.Instant?
    /// Virtual-machine steps the running `withStepLimit` body may still take; nil outside one.
    private var stepsLeft: Int64?
    private static let progressInterval: Int32 = 1_000

    package convenience init(path: String, create: Bool, timeLimit: Duration = .seconds(30)) throws {
        try self.init(
            opening: path, flags: SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), timeLimit: timeLimit)
    }

    /// Opens someone else's database read-only AND immutable: SQLite writes nothing beside it (no `-shm`, no
    /// checkpoint, no journal) and takes no locks; what an unfinished `-wal` holds is not seen.
    package convenience init(readingImmutable path: String, timeLimit: Duration = .seconds(30)) throws {
        try self.init(
            opening: Self.immutableURI(path), flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, timeLimit: timeLimit)
    }

    /// `file:` URI of an absolute path, percent-encoded so `?`, `#` and `%` in a folder name stay part of the path.
    static func immutableURI(_ absolutePath: String) -> String {
        var bytes = Array(absolutePath.utf8)
        // `file://` would start an authority: POSIX reads a leading `//` as `/` anyway.
        while bytes.count > 1 && bytes[0] == UInt8(ascii: "/") && bytes[1] == UInt8(ascii: "/") { bytes.removeFirst() }
        return "file:" + Hex.percentEncoded(bytes, keeping: [UInt8(ascii: "/")]) + "?mode=ro&immutable=1"
    }

    private init(opening path: String, flags: Int32, timeLimit: Duration) throws {
        var opened: OpaquePointer?
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
        sqlite3_progress_handler(
            handle, Self.progressInterval,
            { context in
                guard let context else { return 0 }
                return Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue().shouldInterrupt() ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func shouldInterrupt() -> Bool {
        if let left = stepsLeft {
            stepsLeft = left - Int64(Self.progressInterval)
            if left <= 0 { return true }
        }
        return deadline.map { ContinuousClock.now > $0 } ?? false
    }

    /// Runs `body` with its statements allowed `steps` virtual-machine steps in all (an outer limit stays): a bound
    /// that follows from the input's size, where a clock would depend on the disk and the machine.
    package func withStepLimit<T>(_ steps: Int64, _ body: () throws -> T) rethrows -> T {
        guard stepsLeft == nil else { return try body() }
        stepsLeft = steps
        defer { stepsLeft = nil }
        return try body()
    }

    /// The largest string or blob SQLite hands over: a larger one fails (`.tooBig`) before it is copied.
    package func limitValueLength(to bytes: Int32) {
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, bytes)
    }

    /// Runs `body` with every statement bounded by `timeLimit` from now (an outer deadline, if any, stays).
    package func withDeadline<T>(_ body: () throws -> T) rethrows -> T {
        guard deadline == nil else { return try body() }
        deadline = ContinuousClock.now + timeLimit
        defer { deadline = nil }
        return try body()
    }

    deinit { sqlite3_close_v2(handle) }

    /// A statement for `sql`, which holds `?` placeholders for every value: values are only ever bound.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw lastError(status)
        }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// Runs a statement that returns no rows.
    package func execute(_ sql: String, _ values: [SQLiteValue] = []) throws {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Every row of a query, each turned into a value by `row`.
    package func rows<Row>(
        _ sql: String, _ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws -> Row
    ) throws -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// Runs `body` in one transaction. A writing one takes the write lock up front (`BEGIN IMMEDIATE`), so two
    /// writers never deadlock half-way; a reading one sees one consistent state of the file.
    package func transaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
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
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    package func lastError(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}
