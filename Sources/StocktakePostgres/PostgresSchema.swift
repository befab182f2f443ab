#if PostgreSQL
    import StocktakeHistory
    import PostgresNIO

    extension PostgresHistory {
        /// The advisory lock's key: "stocktak" in ASCII, so that no other program's lock is taken by chance.
        static let schemaLockKey: Int64 = 0x7374_6F63_6B74_616B

        /// Makes a new history's schema, or checks an existing one, in one transaction under an advisory lock (so two
        /// machines opening a new database at once make it once); what it refuses, it throws from inside, rolled back.
        @available(*, noasync)
        func prepareSchema() throws(HistoryError) {
            let store = name
            let known = HistorySchema.currentVersion
            let current: [String: [String]]
            do { current = try HistorySchema.columns(atVersion: known) } catch {
                throw HistoryError(store: store, kind: .failed, message: "could not be checked: \(error)")
            }
            try transaction("opened") { connection, logger in
                // For the session (the commit keeps them): a statement that waits on a lock (another writer, a
                // migration) gives up rather than hang a cron job.
                try await connection.query(
                    "SELECT set_config('statement_timeout', '60s', false), set_config('lock_timeout', '30s', false)",
                    logger: logger)
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.schemaLockKey))", logger: logger)
                let tables = try await Self.columns(connection, logger)
                var version = 0
                if tables["stocktake_schema"] == nil {
                    if let table = HistorySchema.tables.first(where: { tables[$0] != nil }) {
                        throw HistoryError(
                            store: store, kind: .notAHistoryStore,
                            message:
                                "holds a table `\(table)` that stocktake did not make: give the history a database (or a schema, through the role's search_path) of its own"
                        )
                    }
                    try await PostgresGrants.checkCreation(store: store, connection, logger)
                    try await connection.query(
                        "CREATE TABLE stocktake_schema (version INTEGER NOT NULL)", logger: logger)
                    try await connection.query("INSERT INTO stocktake_schema (version) VALUES (0)", logger: logger)
                } else {
                    try await PostgresGrants.check(
                        PostgresGrants.reading, to: "read the history", store: store, connection, logger)
                    let versions = try await Self.rows(connection, logger, "SELECT version FROM stocktake_schema") {
                        try $0.decode(Int32.self)
                    }
                    guard versions.count == 1, let found = versions.first else {
                        throw HistoryError(
                            store: store, kind: .notAHistoryStore,
                            message:
                                "has \(versions.count) rows in stocktake_schema, where a history has exactly one (was it edited by hand?)"
                        )
                    }
                    version = Int(found)
                }
                guard version <= known else {
                    throw HistoryError(
                        store: store, kind: .newerSchema,
                        message:
                            "has schema version \(version); this stocktake knows up to \(known): a newer stocktake migrated it, so run that version (every machine that records into it needs it)"
                    )
                }
                // No stocktake left a PostgreSQL history between none and the baseline.
                guard version == 0 || version == known else {
                    throw HistoryError(
                        store: store, kind: .notAHistoryStore,
                        message:
                            "has schema version \(version) in stocktake_schema, which no stocktake makes on PostgreSQL (was it edited by hand?)"
                    )
                }
                let wanted = version == 0 ? [:] : current
                for table in HistorySchema.tables where tables[table] != wanted[table] {
                    let (found, expected) = (tables[table] ?? [], wanted[table] ?? [])
                    throw HistoryError(
                        store: store, kind: .notAHistoryStore,
                        message:
                            "is not a history this stocktake can read: table `\(table)` has the columns (\(found.joined(separator: ", "))), not (\(expected.joined(separator: ", "))) (was it edited by hand?)"
                    )
                }
                guard version == 0 else { return }
                for statement in HistorySchema.postgresqlBaseline {
                    try await connection.query("\(unescaped: statement)", logger: logger)
                }
                try await connection.query("UPDATE stocktake_schema SET version = \(Int32(known))", logger: logger)
            }
        }

        /// Every column of every table in the connection's schema (`search_path`'s first), by table, in order. From
        /// the catalog, which shows every table whatever the role's grants (information_schema hides those it may
        /// not use, and a table hidden so looked like another program's).
        private static func columns(
            _ connection: PostgresConnection, _ logger: Logger
        ) async throws -> [String: [String]] {
            let rows = try await Self.rows(
                connection, logger,
                """
                SELECT c.relname::text, a.attname::text FROM pg_catalog.pg_class c
                JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                WHERE c.relnamespace = quote_ident(current_schema())::regnamespace
                    AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                ORDER BY c.relname, a.attnum
                """
            ) { try $0.decode((String, String).self) }
            return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
        }
    }
#endif
