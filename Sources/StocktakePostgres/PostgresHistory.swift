import StocktakeHistory
import StocktakeModel

/// Whether this stocktake was built with the PostgreSQL trait (`swift build --traits PostgreSQL`).
package enum PostgresSupport {
    #if PostgreSQL
        package static let isBuilt = true
    #else
        package static let isBuilt = false
    #endif

    /// What to say when a server URL is given to a build without the trait.
    package static let missingMessage =
        "this stocktake was built without PostgreSQL support: build it with `swift build -c release --traits PostgreSQL` to use a postgresql:// history"
}

#if PostgreSQL
    import Foundation
    import Logging
    import NIOCore
    import NIOSSL
    import PostgresNIO

    /// The history on a PostgreSQL server that many machines share. Each object holds one connection; each call is
    /// one transaction, so a run is recorded whole or not at all and a reader sees whole runs only. A retried or
    /// concurrent record of the same run takes the row's lock (`ON CONFLICT … DO UPDATE`) and replaces it, so the
    /// run stays one row. Calls block the calling thread (the CLI is synchronous) while a task on the concurrency
    /// pool does the work: call them from a thread of your own (the main thread, a `Thread`), never from async
    /// code, whose blocked pool thread that task might need.
    package final class PostgresHistory: RunHistory {
        package let address: PostgresAddress
        private let connection: PostgresConnection
        private let logger = Logger(label: "stocktake.history", factory: { _ in SwiftLogNoOpLogHandler() })

        package var name: String { address.description }

        /// Connects, checks the schema and migrates it forward (`schemaVersion`: tests stop at an older one).
        package init(address: PostgresAddress, schemaVersion: Int = HistorySchema.currentVersion) throws(HistoryError) {
            self.address = address
            let configuration = try Self.configuration(address)
            let logger = self.logger
            // The login's own limit: the connect timeout, then the server's answers to the startup and the password.
            let loginLimit = Duration.seconds(address.connectTimeoutSeconds + 20)
            connection = try Self.blocking(address, "opened", limit: loginLimit) {
                do {
                    return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                } catch {
                    throw await PostgresTLS.diagnose(error, address) ?? error
                }
            }
            do {
                try call("opened") { connection, logger in
                    // A statement that waits on a lock (another writer, a migration) gives up rather than hang a cron job.
                    try await connection.query("SET statement_timeout = '60s'", logger: logger)
                    try await connection.query("SET lock_timeout = '30s'", logger: logger)
                }
                try PostgresSchema(history: self).migrate(upTo: schemaVersion)
            } catch {
                close()
                throw error
            }
        }

        deinit { close() }

        /// Closes the connection, waiting a little for the server's goodbye (never on a connection that hangs).
        private func close() {
            guard !connection.isClosed else { return }
            let closed: EventLoopFuture<Void> = connection.close()
            let waiter = Waiter<Void>()
            closed.whenComplete { waiter.finish($0.mapError { $0 }) }
            _ = waiter.wait(for: .seconds(5))
        }

        // MARK: The contract

        package func record(_ run: HistoryRun) throws(HistoryError) {
            let values = RunRow.values(run)
            let columns = RunRow.columns
            let updates = columns.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
            let insert = """
                INSERT INTO runs (\(columns.joined(separator: ", "))) VALUES (\(Self.placeholders(columns.count)))
                ON CONFLICT (bundle_identifier, source, run_id) DO UPDATE SET \(updates) RETURNING id
                """
            let store = name
            try transaction("written") { connection, logger in
                // Asked first, so that a role that may only read is told which grant it lacks.
                if let refusal = try await PostgresGrants.refusal(
                    PostgresGrants.recording, to: "record runs", connection, logger)
                {
                    throw HistoryError(store: store, kind: .refused, message: refusal)
                }
                let id = try await Self.rows(
                    connection, logger, insert, values.map(\.bind), { try $0.decode(Int64.self) }
                ).first
                guard let id else { throw PostgresHistoryFailure("the run's row was not returned") }
                try await connection.query("DELETE FROM run_locations WHERE run = \(id)", logger: logger)
                try await connection.query("DELETE FROM run_findings WHERE run = \(id)", logger: logger)
                // One statement per table, whatever the number of rules: arrays unnested server-side.
                let places = Location.allCases
                let totals = places.map { run.byLocation[$0] ?? .zero }
                try await connection.query(
                    """
                    INSERT INTO run_locations (run, location, files, apparent_bytes, allocated_bytes)
                    SELECT \(id), * FROM unnest(\(places.map(\.rawValue))::text[], \(totals.map { Int64($0.files) })::bigint[],
                        \(totals.map(\.apparentBytes))::bigint[], \(totals.map(\.allocatedBytes))::bigint[])
                    """, logger: logger)
                if !run.findings.isEmpty {
                    try await connection.query(
                        """
                        INSERT INTO run_findings (run, rule, severity, count)
                        SELECT \(id), * FROM unnest(\(run.findings.map(\.rule))::text[],
                            \(run.findings.map(\.severity.rawValue))::text[], \(run.findings.map { Int64($0.count) })::bigint[])
                        """, logger: logger)
                }
            }
        }

        package func runs(of series: RunSeries, limit: Int) throws(HistoryError) -> [HistoryRun] {
            guard limit > 0 else { return [] }
            let select = """
                SELECT id, \(RunRow.columns.joined(separator: ", ")) FROM runs
                WHERE bundle_identifier = $1 AND source = $2 ORDER BY run_id DESC LIMIT $3
                """
            let loaded = try transaction("read", readOnly: true) { connection, logger in
                let rows = try await Self.rows(
                    connection, logger, select,
                    [.text(series.bundleIdentifier), .text(series.source), .integer(Int64(limit))]
                ) { row in
                    var cursor = RowCursor(row: row.makeRandomAccess(), column: 1)
                    return (id: try row.makeRandomAccess()[0].decode(Int64.self), fields: try RunRow.Fields(&cursor))
                }
                let ids = rows.map(\.id)
                let locations = try await Self.rows(
                    connection, logger,
                    "SELECT run, location, files, apparent_bytes, allocated_bytes FROM run_locations WHERE run = ANY($1)",
                    [.integers(ids)]
                ) { row in
                    let (run, name, files, apparent, allocated) = try row.decode(
                        (Int64, String, Int64, Int64, Int64).self)
                    return (
                        run: run,
                        value: (
                            name: name,
                            total: SizeTotal(
                                files: Int(truncatingIfNeeded: files), apparentBytes: apparent,
                                allocatedBytes: allocated)
                        )
                    )
                }
                let findings = try await Self.rows(
                    connection, logger, "SELECT run, rule, severity, count FROM run_findings WHERE run = ANY($1)",
                    [.integers(ids)]
                ) { row in
                    let (run, rule, severity, count) = try row.decode((Int64, String, String, Int64).self)
                    return (run: run, value: (rule: rule, severity: severity, count: Int(truncatingIfNeeded: count)))
                }
                return (rows: rows, locations: locations, findings: findings)
            }
            let locations = Dictionary(grouping: loaded.locations, by: \.run)
            let findings = Dictionary(grouping: loaded.findings, by: \.run)
            do {
                return try loaded.rows.reversed().map { row throws(RunRow.RowProblem) in
                    try row.fields.run(
                        locations: (locations[row.id] ?? []).map(\.value),
                        findings: (findings[row.id] ?? []).map(\.value))
                }
            } catch {
                throw HistoryError(
                    store: name, kind: .failed, message: "could not be read: \(error.detail) (was it edited by hand?)")
            }
        }

        package func runIDs(of series: RunSeries) throws(HistoryError) -> [String] {
            try call("read") { connection, logger in
                try await Self.rows(
                    connection, logger,
                    "SELECT run_id FROM runs WHERE bundle_identifier = $1 AND source = $2 ORDER BY run_id",
                    [.text(series.bundleIdentifier), .text(series.source)]
                ) { try $0.decode(String.self) }
            }
        }

        package func series() throws(HistoryError) -> [RunSeries] {
            try call("read") { connection, logger in
                try await Self.rows(connection, logger, "SELECT DISTINCT bundle_identifier, source FROM runs", []) {
                    let (app, source) = try $0.decode((String, String).self)
                    return RunSeries(bundleIdentifier: app, source: source)
                }
            }.sorted()
        }

        // MARK: Calls

        /// Runs `body` on the connection and waits for it; any failure becomes a `HistoryError` saying what failed.
        func call<T: Sendable>(
            _ action: String, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
        ) throws(HistoryError) -> T {
            let connection = self.connection
            let logger = self.logger
            return try Self.blocking(address, action, giveUp: { _ = connection.close() as EventLoopFuture<Void> }) {
                try await body(connection, logger)
            }
        }

        /// `body` in one transaction, rolled back when it throws. A read-only one is `REPEATABLE READ`, so every query
        /// in it sees the same runs.
        func transaction<T: Sendable>(
            _ action: String, readOnly: Bool = false,
            _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
        ) throws(HistoryError) -> T {
            try call(action) { connection, logger in
                try await connection.query(
                    // Writers at READ COMMITTED whatever the server's default: a row lock waited for is then read anew
                    // (no serialization failures between two writers of one run), and the migration sees the table
                    // that the holder of the advisory lock made.
                    readOnly
                        ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN ISOLATION LEVEL READ COMMITTED",
                    logger: logger)
                do {
                    let result = try await body(connection, logger)
                    try await connection.query("COMMIT", logger: logger)
                    return result
                } catch {
                    // A lost connection has rolled back on the server already (and takes no more queries).
                    if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
                    throw error
                }
            }
        }

        /// Every row of `sql` with `values` bound to `$1…`, each turned into a `T`.
        static func rows<T>(
            _ connection: PostgresConnection, _ logger: Logger, _ sql: String, _ values: [Bound],
            _ read: (PostgresRow) throws -> T
        ) async throws -> [T] {
            var bindings = PostgresBindings(capacity: values.count)
            for value in values { value.append(to: &bindings) }
            var rows: [T] = []
            for try await row in try await connection.query(
                PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
            {
                rows.append(try read(row))
            }
            return rows
        }

        static func placeholders(_ count: Int) -> String {
            (1...count).map { "$\($0)" }.joined(separator: ", ")
        }

        /// How long one call may take in all before the connection is given up: the server's own limits (60 s a
        /// statement, 30 s a lock) and the connect timeout come first; this is the backstop for a connection that
        /// neither answers nor closes (a server frozen, a network that drops packets silently).
        static let callLimit: Duration = .seconds(120)

        /// Waits on this (non-async) thread for `work`, run as a task; failures are described for a person. When the
        /// work outlives `callLimit`, `giveUp` runs (closing the connection, which fails whatever waits on it).
        static func blocking<T: Sendable>(
            _ address: PostgresAddress, _ action: String, limit: Duration = callLimit,
            giveUp: @Sendable () -> Void = {},
            _ work: @escaping @Sendable () async throws -> T
        ) throws(HistoryError) -> T {
            let waiter = Waiter<T>()
            let task = Task {
                do { waiter.finish(.success(try await work())) } catch { waiter.finish(.failure(error)) }
            }
            guard let result = waiter.wait(for: limit) else {
                task.cancel()
                giveUp()
                throw HistoryError(
                    store: address.description, kind: .unreachable,
                    message:
                        "did not finish within \(limit.components.seconds) s while being \(action) (a frozen server or network, or other writers' locks); nothing half-done was kept, and the next run tries again"
                )
            }
            switch result {
            case .success(let value): return value
            case .failure(let error as HistoryError): throw error
            case .failure(let error): throw PostgresFailure.describe(error, address: address, action: action)
            }
        }

        private static func configuration(_ address: PostgresAddress) throws(HistoryError)
            -> PostgresConnection.Configuration
        {
            var configuration: PostgresConnection.Configuration
            if let socket = address.socketPath {
                configuration = .init(
                    unixSocketPath: socket, username: address.user, password: address.password,
                    database: address.database)
            } else {
                configuration = .init(
                    host: address.host, port: address.port, username: address.user, password: address.password,
                    database: address.database, tls: try PostgresTLS.configuration(address))
            }
            configuration.options.connectTimeout = .seconds(Int64(address.connectTimeoutSeconds))
            configuration.options.additionalStartupParameters = [("application_name", "stocktake")]
            return configuration
        }
    }

    /// A value bound to a `$n` placeholder.
    enum Bound: Sendable {
        case text(String?)
        case integer(Int64)
        case real(Double?)
        case integers([Int64])

        func append(to bindings: inout PostgresBindings) {
            switch self {
            case .text(let text): bindings.append(text)
            case .integer(let number): bindings.append(number)
            case .real(let number): bindings.append(number)
            case .integers(let numbers): bindings.append(numbers)
            }
        }
    }

    extension RunRow.Value {
        var bind: Bound {
            switch self {
            case .text(let text): .text(text)
            case .integer(let number): .integer(number)
            case .real(let number): .real(number)
            }
        }
    }

    /// Reads a `runs` row from a result row, from `column` on.
    private struct RowCursor: RunRow.Cursor {
        let row: PostgresRandomAccessRow
        var column: Int

        mutating func text() throws -> String? {
            defer { column += 1 }
            return try row[column].decode(String?.self)
        }

        mutating func integer() throws -> Int64 {
            defer { column += 1 }
            return try row[column].decode(Int64.self)
        }

        mutating func real() throws -> Double? {
            defer { column += 1 }
            return try row[column].decode(Double?.self)
        }
    }

    /// A task's result, waited for by a thread that is not the task's (the CLI's main thread).
    private final class Waiter<T: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private var result: Result<T, any Error>?

        func finish(_ result: Result<T, any Error>) {
            condition.lock()
            self.result = result
            condition.signal()
            condition.unlock()
        }

        /// The result, or nil when `limit` passed first.
        func wait(for limit: Duration) -> Result<T, any Error>? {
            let deadline = Date(timeIntervalSinceNow: limit.inSeconds)
            condition.lock()
            defer { condition.unlock() }
            while result == nil {
                if !condition.wait(until: deadline) { return result }
            }
            return result
        }
    }

    /// Something the history itself found wrong mid-call (not the server or the network).
    struct PostgresHistoryFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
#endif
