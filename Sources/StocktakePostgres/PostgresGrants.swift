#if PostgreSQL
    import PostgresNIO
    import StocktakeHistory
    import StocktakeModel

    /// What the connected role may do to the history's tables, asked of the server's catalog before a statement
    /// fails halfway: a refusal names each missing grant and the statement that gives it.
    enum PostgresGrants {
        /// Reading (and the schema check on every connect) needs the version table and every table.
        static let reading = (["stocktake_schema"] + HistorySchema.tables).map { (table: $0, privileges: ["SELECT"]) }
        /// Recording replaces a run's row and its location and finding rows.
        static let recording = [
            (table: "runs", privileges: ["INSERT", "UPDATE"]),
            (table: "run_locations", privileges: ["INSERT", "DELETE"]),
            (table: "run_findings", privileges: ["INSERT", "DELETE"]),
        ]

        /// Throws a refusal naming each of `needed` the role lacks on the tables of the connection's schema that exist.
        static func check(
            _ needed: [(table: String, privileges: [String])], to action: String, store: String,
            _ connection: PostgresConnection, _ logger: Logger
        ) async throws {
            let pairs = needed.flatMap { need in need.privileges.map { (need.table, $0) } }
            // Tables that lack the same privileges share one GRANT: grouped by table, then by what they lack.
            let rows = try await connection.query(
                """
                WITH lacking AS (
                    SELECT w.t, string_agg(w.p, ', ' ORDER BY w.n) AS p, min(w.n) AS n
                    FROM unnest(\(pairs.map(\.0))::text[], \(pairs.map(\.1))::text[]) WITH ORDINALITY AS w(t, p, n)
                    JOIN pg_catalog.pg_class c ON c.relname = w.t AND c.relnamespace = quote_ident(current_schema())::regnamespace
                    WHERE NOT has_table_privilege(c.oid, w.p) GROUP BY w.t)
                SELECT current_user::text, p, string_agg(t, ', ' ORDER BY n) FROM lacking GROUP BY p ORDER BY min(n)
                """, logger: logger)
            var role = ""
            var missing: [(privileges: String, tables: String)] = []
            for try await (user, privileges, tables) in rows.decode((String, String, String).self) {
                role = user
                missing.append((privileges, tables))
            }
            guard !missing.isEmpty else { return }
            let lacks = missing.map { "\($0.privileges) on \($0.tables)" }
            let grants = missing.map { "GRANT \($0.privileges) ON \($0.tables) TO \(quoted(role))" }
            throw refusal(
                store,
                "may not \(action): the role \(role) lacks \(lacks.joined(separator: " and ")); as the tables' owner, run: \(grants.joined(separator: "; "))"
            )
        }

        /// Throws a refusal when the role cannot make the history's tables in the connection's schema.
        static func checkCreation(store: String, _ connection: PostgresConnection, _ logger: Logger) async throws {
            let rows = try await connection.query(
                """
                SELECT current_user::text, current_schema()::text,
                    coalesce(has_schema_privilege(current_schema(), 'CREATE'), false)
                """, logger: logger)
            for try await (role, schema, canCreate) in rows.decode((String, String?, Bool).self) where !canCreate {
                guard let schema else {
                    throw refusal(
                        store,
                        "has no schema on the role \(role)'s search_path to make the history's tables in: create one, or set the role's search_path"
                    )
                }
                throw refusal(
                    store,
                    "may not make the history's tables: the role \(role) lacks CREATE on schema \(schema); as its owner, run: GRANT CREATE ON SCHEMA \(quoted(schema)) TO \(quoted(role)) (or make the history once as a role that has it)"
                )
            }
        }

        private static func refusal(_ store: String, _ message: String) -> HistoryError {
            HistoryError(store: store, kind: .refused, message: VisibleText.render(message, as: .message))
        }

        /// `name` as an SQL identifier: bare when PostgreSQL would read it back unchanged.
        static func quoted(_ name: String) -> String {
            let plain =
                name.first.map { $0 == "_" || ("a"..."z").contains($0) } == true
                && name.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            return plain
                ? name
                : "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
        }
    }
#endif
