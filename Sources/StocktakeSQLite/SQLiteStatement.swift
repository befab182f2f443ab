import CSQLite3

/// A value bound to a `?` placeholder.
package enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case real(Double)
    case null

    package static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    package static func optionalText(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}

/// A prepared statement. It keeps its connection alive and is finalized when released.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to its placeholders, in order.
    package func bind(_ values: [SQLiteValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(handle, index, number)
            case .null: status = sqlite3_bind_null(handle, index)
            case .real(let number): status = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // By bytes and length, so a NUL inside a (hostile) name neither truncates nor ends it early.
                status = text.withCString {
                    sqlite3_bind_text(handle, index, $0, Int32(text.utf8.count), Self.transient)
                }
            }
            guard status == SQLITE_OK else { throw connection.lastError(status) }
        }
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    package func step() throws -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.lastError(status)
        }
    }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// A REAL column's value; nil when it is NULL.
    package func double(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }

    package func int(_ column: Int32) -> Int { Int(truncatingIfNeeded: sqlite3_column_int64(handle, column)) }

    /// The column's text (by its byte length, NULs kept), or nil for NULL.
    package func text(_ column: Int32) -> String? {
        guard let start = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// The column's bytes as stored (text or blob, no conversion to UTF-8), or nil for NULL.
    package func bytes(_ column: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        // Ask for the pointer first: `sqlite3_column_bytes` then gives the length of that same representation.
        let start = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let start, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// `SQLITE_TRANSIENT` (SQLite copies the bytes), a C macro casting -1 that Swift does not import.
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }
}
