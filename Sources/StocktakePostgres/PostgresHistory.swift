import StocktakeHistory
import StocktakeModel

/// For a build without the PostgreSQL trait (`swift build --traits PostgreSQL`).
package enum PostgresSupport {
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

    /// The history on a PostgreSQL server that many machines share, over one connection. Each call is one
    /// transaction, so a run is recorded whole or not at all; a retried or concurrent record of a run replaces its row
    /// (`ON CONFLICT … DO UPDATE`). Calls block their thread (the CLI is synchronous) while a task on the concurrency
    /// pool does the work: `noasync`, since an async caller's blocked pool thread may be the one that task needs.
    package final class PostgresHistory: RunHistory {
        package let address: PostgresAddress
        private let connection: PostgresConnection
        private let logger = Logger(label: "stocktake.history", factory: { _ in SwiftLogNoOpLogHandler() })

        package var name: String { address.description }

        @available(*, noasync)
        package init(address: PostgresAddress) throws(HistoryError) {
            self.address = address
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
            let logger = self.logger
            // The login's own limit: the connect timeout, then the server's answers to the startup and the password.
            let loginLimit = Duration.seconds(address.connectTimeoutSeconds + 20)
            connection = try Self.blocking(address, "opened", limit: loginLimit) { [configuration] in
                do {
                    return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                } catch {
                    throw await PostgresTLS.diagnose(error, address) ?? error
                }
            }
            do { try prepareSchema() } catch {
                close()
                throw error
            }
        }

        deinit { close() }

        /// Closes the connection, waiting a little for the server's goodbye (never on a connection that hangs).
        private func close() {
            guard !connection.isClosed else { return }
            let latch = Latch<Void>()
            (connection.close() as EventLoopFuture<Void>).whenComplete { _ in latch.set(()) }
            _ = latch.wait(for: .seconds(5))
        }

        @available(*, noasync)
        package func record(_ run: HistoryRun) throws(HistoryError) {
            let columns = RunRow.columns
            // The column names are this code's own constants; every value is bound.
            var insert = PostgresQuery.StringInterpolation(literalCapacity: 1024, interpolationCount: columns.count)
            insert.appendInterpolation(unescaped: "INSERT INTO runs (\(columns.joined(separator: ", "))) VALUES (")
            for (index, value) in RunRow.values(run).enumerated() {
                if index > 0 { insert.appendInterpolation(unescaped: ", ") }
                switch value {
                case .text(let text): insert.appendInterpolation(text)
                case .integer(let number): insert.appendInterpolation(number)
                case .real(let number): insert.appendInterpolation(number)
                }
            }
            let updates = columns.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
            insert.appendInterpolation(
                unescaped:
                    ") ON CONFLICT (bundle_identifier, source, run_id) DO UPDATE SET \(updates) RETURNING id")
            let upsert = PostgresQuery(stringInterpolation: insert)
            let store = name
            try transaction("written") { connection, logger in
                // Asked first, so that a role that may only read is told which grant it lacks.
                try await PostgresGrants.check(
                    PostgresGrants.recording, to: "record runs", store: store, connection, logger)
                guard let id = try await Self.rows(connection, logger, upsert, { try $0.decode(Int64.self) }).first
                else {
                    throw HistoryError(
                        store: store, kind: .failed, message: "could not be written: the run's row was not returned")
                }
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

        @available(*, noasync)
        package func runs(of series: RunSeries, limit: Int) throws(HistoryError) -> [HistoryRun] {
            guard limit > 0 else { return [] }
            let select: PostgresQuery = """
                SELECT id, \(unescaped: RunRow.columns.joined(separator: ", ")) FROM runs
                WHERE bundle_identifier = \(series.bundleIdentifier) AND source = \(series.source)
                ORDER BY run_id DESC LIMIT \(Int64(limit))
                """
            let loaded = try transaction("read", readOnly: true) { connection, logger in
                let rows = try await Self.rows(connection, logger, select) { row in
                    let row = row.makeRandomAccess()
                    let fields = try RunRow.Fields(
                        from: 1, text: { try row[$0].decode(String?.self) },
                        integer: { try row[$0].decode(Int64.self) },
                        real: { try row[$0].decode(Double?.self) })
                    return (id: try row[0].decode(Int64.self), fields: fields)
                }
                let ids = rows.map(\.id)
                let locations = try await Self.rows(
                    connection, logger,
                    "SELECT run, location, files, apparent_bytes, allocated_bytes FROM run_locations WHERE run = ANY(\(ids))"
                ) { row in
                    let (run, name, files, apparent, allocated) = try row.decode(
                        (Int64, String, Int64, Int64, Int64).self)
                    let total = SizeTotal(
                        files: Int(truncatingIfNeeded: files), apparentBytes: apparent, allocatedBytes: allocated)
                    return (run: run, value: (name: name, total: total))
                }
                let findings = try await Self.rows(
                    connection, logger, "SELECT run, rule, severity, count FROM run_findings WHERE run = ANY(\(ids))"
                ) { row in
                    let (run, rule, severity, count) = try row.decode((Int64, String, String, Int64).self)
                    return (run: run, value: (rule: rule, severity: severity, count: Int(truncatingIfNeeded: count)))
                }
                return (rows: rows, locations: locations, findings: findings)
            }
            let locations = Dictionary(grouping: loaded.locations, by: \.run)
            let findings = Dictionary(grouping: loaded.findings, by: \.run)
            return try loaded.rows.reversed().map { row throws(HistoryError) in
                try row.fields.run(
                    store: name, locations: (locations[row.id] ?? []).map(\.value),
                    findings: (findings[row.id] ?? []).map(\.value))
            }
        }

        @available(*, noasync)
        package func runIDs(of series: RunSeries) throws(HistoryError) -> [String] {
            try call("read") { connection, logger in
                try await Self.rows(
                    connection, logger,
                    """
                    SELECT run_id FROM runs WHERE bundle_identifier = \(series.bundleIdentifier) \
                    AND source = \(series.source) ORDER BY run_id
                    """
                ) { try $0.decode(String.self) }
            }
        }

        @available(*, noasync)
        package func series() throws(HistoryError) -> [RunSeries] {
            try call("read") { connection, logger in
                try await Self.rows(connection, logger, "SELECT DISTINCT bundle_identifier, source FROM runs") {
                    let (app, source) = try $0.decode((String, String).self)
                    return RunSeries(bundleIdentifier: app, source: source)
                }
            }.sorted()
        }

        /// Runs `body` on the connection and waits for it; any failure becomes a `HistoryError` saying what failed.
        @available(*, noasync)
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
        @available(*, noasync)
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

        static func rows<T>(
            _ connection: PostgresConnection, _ logger: Logger, _ query: PostgresQuery,
            _ read: (PostgresRow) throws -> T
        ) async throws -> [T] {
            var rows: [T] = []
            for try await row in try await connection.query(query, logger: logger) { rows.append(try read(row)) }
            return rows
        }

        /// A call's backstop, for a connection that neither answers nor closes (a frozen server, a network that drops
        /// packets silently): the server's limits (60 s a statement, 30 s a lock) and the connect timeout come first.
        static let callLimit: Duration = .seconds(120)

        /// Waits on this (non-async) thread for `work`, run as a task; failures are described for a person. When the
        /// work outlives `callLimit`, `giveUp` runs (closing the connection, which fails whatever waits on it).
        @available(*, noasync)
        static func blocking<T: Sendable>(
            _ address: PostgresAddress, _ action: String, limit: Duration = callLimit,
            giveUp: @Sendable () -> Void = {},
            _ work: @escaping @Sendable () async throws -> T
        ) throws(HistoryError) -> T {
            let latch = Latch<Result<T, any Error>>()
            let task = Task {
                do { latch.set(.success(try await work())) } catch { latch.set(.failure(error)) }
            }
            guard let result = latch.wait(for: limit) else {
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
    }
#endif
