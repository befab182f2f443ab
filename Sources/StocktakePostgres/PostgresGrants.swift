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

        /// Why the role cannot do what `needed` allows on the tables of the connection's schema that exist, or nil.
        static func refusal(
            _ needed: [(table: String, privileges: [String])], to action: String, _ connection: PostgresConnection,
            _ logger: Logger
        ) async throws -> String? {
            let pairs = needed.flatMap { need in need.privileges.map { (need.table, $0) } }
            let rows = try await connection.query(
                """
                SELECT current_user::text, w.t, w.p FROM unnest(\(pairs.map(\.0))::text[], \(pairs.map(\.1))::text[])
                    WITH ORDINALITY AS w(t, p, n)
                JOIN pg_catalog.pg_class c ON c.relname = w.t AND c.relnamespace = quote_ident(current_schema())::regnamespace
                WHERE NOT has_table_privilege(c.oid, w.p) ORDER BY w.n
                """, logger: logger)
            var role = ""
            var byTable: [(table: String, privileges: [String])] = []
            for try await (user, table, privilege) in rows.decode((String, String, String).self) {
                role = user
                if byTable.last?.table == table {
                    byTable[byTable.count - 1].privileges.append(privilege)
                } else {
                    byTable.append((table, [privilege]))
                }
            }
            guard !byTable.isEmpty else { return nil }
            // Tables that lack the same privileges share one GRANT.
            var missing: [(privileges: String, tables: [String])] = []
            for (table, privileges) in byTable {
                let list = privileges.joined(separator: ", ")
                if let index = missing.firstIndex(where: { $0.privileges == list }) {
                    missing[index].tables.append(table)
                } else {
                    missing.append((list, [table]))
                }
            }
            let lacks = missing.map { "\($0.privileges) on \($0.tables.joined(separator: ", "))" }
            let grants = missing.map {
                "GRANT \($0.privileges) ON \($0.tables.joined(separator: ", ")) TO \(quoted(role))"
            }
            return VisibleText.render(
                "may not \(action): the role \(role) lacks \(lacks.joined(separator: " and ")); as the tables' owner, run: \(grants.joined(separator: "; "))",
                as: .message)
        }

        /// Why the role cannot make the history's tables in the connection's schema, or nil.
        static func creationRefusal(_ connection: PostgresConnection, _ logger: Logger) async throws -> String? {
            let rows = try await connection.query(
                """
                SELECT current_user::text, current_schema()::text,
                    coalesce(has_schema_privilege(current_schema(), 'CREATE'), false)
                """, logger: logger)
            for try await (role, schema, canCreate) in rows.decode((String, String?, Bool).self) {
                guard let schema else {
                    return VisibleText.render(
                        "has no schema on the role \(role)'s search_path to make the history's tables in: create one, or set the role's search_path",
                        as: .message)
                }
                if canCreate { return nil }
                return VisibleText.render(
                    "may not make the history's tables: the role \(role) lacks CREATE on schema \(schema); as its owner, run: GRANT CREATE ON SCHEMA \(quoted(schema)) TO \(quoted(role)) (or make the history once as a role that has it)",
                    as: .message)
            }
            return nil
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
