import StocktakeFiles
import StocktakeSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The history in an SQLite file beside the reports; a file that is not a history store (or a newer one) is refused
/// rather than touched. Not `Sendable`: other processes open their own, kept apart by SQLite's locks.
package final class HistoryStore: RunHistory {
    package static let fileName = "history.sqlite"

    package static func path(inReports folder: String) -> String { Paths.join(folder, fileName) }

    package let path: String
    let connection: SQLiteConnection

    package var name: String { path }

    /// Without `createIfMissing`, a missing file is `.missing`: readers should not leave files behind.
    package convenience init(path: String, createIfMissing: Bool = true) throws(HistoryError) {
        try self.init(path: path, createIfMissing: createIfMissing, schemaVersion: HistorySchema.currentVersion)
    }

    /// Applies migrations up to `schemaVersion` only: tests build the stores older versions left behind.
    init(path: String, createIfMissing: Bool, schemaVersion: Int, timeLimit: Duration = .seconds(30))
        throws(HistoryError)
    {
        self.path = path
        if !createIfMissing && access(path, F_OK) != 0 {
            throw HistoryError(
                store: path, kind: .missing,
                message:
                    "does not exist; the nightly job creates it on its first run (or pass the reports folder that holds it)"
            )
        }
        // SQLite would open a device or a FIFO and leave its `-journal` beside it (or block): only a regular file.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let kind = status.st_mode & S_IFMT == S_IFDIR ? "a folder" : "a device, a FIFO or a socket"
            throw HistoryError(
                store: path, kind: .notAHistoryStore,
                message: "is \(kind), not an SQLite file; give a history file's path (or a new file's)")
        }
        do {
            connection = try SQLiteConnection(path: path, create: createIfMissing, timeLimit: timeLimit)
        } catch {
            throw HistoryError(store: path, kind: .failed, message: "could not be opened: \(error)")
        }
        try guarded("opened") { try migrate(upTo: schemaVersion) }
    }

    private func migrate(upTo target: Int) throws {
        // Cascading deletes keep a run's rows in the other tables together with it.
        try connection.execute("PRAGMA foreign_keys = ON")
        // No function with side effects from the schema: a second line behind the schema check below.
        try connection.execute("PRAGMA trusted_schema = OFF")
        // A committed run must survive a power cut on macOS too, where only F_FULLFSYNC empties the drive's
        // cache (SQLite uses it only when asked; elsewhere the pragma is accepted and changes nothing).
        try connection.execute("PRAGMA fullfsync = ON")
        // One read transaction for every check, so another process's migration is seen whole or not at all.
        let found: Int
        do {
            found = try connection.transaction(writing: false) { try checkedVersion() }
        } catch let error as SQLiteError where error.kind == .notADatabase {
            throw HistoryError(
                store: path, kind: .notAHistoryStore,
                message: "is not an SQLite database; move it aside and the next nightly run starts a new history")
        }
        guard found < target else { return }
        // Off around the transaction (not inside it): with them on, version 3's copy of `runs` would delete every run's
        // other rows. A failed migration never opens the store, so only the way out of a good one turns them back on.
        try connection.execute("PRAGMA foreign_keys = OFF")
        try connection.transaction(writing: true) {
            // Read and checked again under the write lock: another process may have migrated meanwhile.
            let current = try checkedVersion()
            for migration in HistorySchema.migrations where migration.version > current && migration.version <= target {
                for statement in migration.sqlite { try connection.execute(statement) }
                // A pragma takes no bound parameters; the version is a constant of this code, not input.
                try connection.execute("PRAGMA user_version = \(migration.version)")
            }
            let orphans = try connection.rows("PRAGMA foreign_key_check", [], { $0.text(0) ?? "" })
            if let table = orphans.first {
                throw HistoryError(
                    store: path, kind: .notAHistoryStore,
                    message:
                        "could not be migrated: table `\(table)` has rows of runs that do not exist (was it edited by hand?)"
                )
            }
        }
        // Stated, not assumed: a store left without them would keep a deleted run's rows in the other tables.
        try connection.execute("PRAGMA foreign_keys = ON")
        guard try connection.rows("PRAGMA foreign_keys", [], { $0.int(0) }).first == 1 else {
            throw HistoryError(store: path, kind: .failed, message: "could not turn SQLite's foreign keys back on")
        }
    }

    /// The schema version, once the schema is checked to be what that version's migrations make.
    private func checkedVersion() throws -> Int {
        let found = try userVersion()
        let known = HistorySchema.currentVersion
        guard found <= known else {
            throw HistoryError(
                store: path, kind: .newerSchema,
                message:
                    "has schema version \(found); this stocktake knows up to \(known): a newer stocktake wrote it, so run that version (or use another reports folder)"
            )
        }
        if found == 0, try connection.rows("SELECT count(*) FROM sqlite_master", [], { $0.int(0) }).first ?? 0 > 0 {
            throw HistoryError(
                store: path, kind: .notAHistoryStore,
                message:
                    "is an SQLite database of something else (it has tables but no stocktake schema version); move it aside or use another reports folder"
            )
        }
        // Before any query touches a table: a hostile store could make one a view that never ends.
        if let problem = try HistorySchema.problem(in: connection, version: found) {
            throw HistoryError(
                store: path, kind: .notAHistoryStore,
                message:
                    "is not a history store this stocktake can read: \(problem) (was it edited by hand?); move it aside and the next nightly run starts a new history"
            )
        }
        return found
    }

    func userVersion() throws -> Int { try connection.rows("PRAGMA user_version", [], { $0.int(0) }).first ?? 0 }

    /// Runs `body` under the connection's deadline, SQLite's failures made a `HistoryError`.
    func guarded<T>(_ action: String, _ body: () throws -> T) throws(HistoryError) -> T {
        do {
            return try connection.withDeadline(body)
        } catch let error as HistoryError {
            throw error
        } catch let error as SQLiteError where error.kind == .interrupted {
            throw HistoryError(
                store: path, kind: .failed,
                message:
                    "could not be \(action): it took longer than \(connection.timeLimit) (is it damaged or edited by hand? move it aside and the next nightly run starts a new history)"
            )
        } catch {
            throw HistoryError(store: path, kind: .failed, message: "could not be \(action): \(error)")
        }
    }
}
