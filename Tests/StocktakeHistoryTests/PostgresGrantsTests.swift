#if PostgreSQL
    import Foundation
    import StocktakePostgres
    import TestSupport
    import Testing

    @testable import StocktakeHistory

    /// A role that may not do what a command needs is told which grant it lacks, and the statement it is told to
    /// run (as the owner) is the one that lets it.
    extension PostgresContractTests {
        @Test func aRoleThatMayOnlyReadTheThreeTablesIsToldWhatToGrant() async throws {
            try await onThread { try Self.readOnlyRole() }
        }

        @Test func aRoleWithoutGrantsIsToldWhatToGrant() async throws {
            try await onThread { try Self.roleWithoutGrants() }
        }

        @Test func aRoleThatMayNotCreateTablesIsToldSo() async throws {
            try await onThread { try Self.roleWithoutCreate() }
        }

        private static func readOnlyRole() throws {
            let database = try PostgresServer.freshDatabase()
            try PostgresHistory(address: try PostgresUnderTest.address(database.url))
                .record(HistoryContract.run("2026-11-21T020000Z"))
            let role = try Role(database)
            defer { role.drop() }
            try database.psql("GRANT SELECT ON runs, run_locations, run_findings TO \(role.name)")

            let refusal = try grants(in: refused { _ = try PostgresHistory(address: role.address) })
            #expect(
                refusal.text.contains(
                    "may not read the history: the role \(role.name) lacks SELECT on stocktake_schema"))
            #expect(!refusal.text.contains("did not make"))
            for grant in refusal.statements { try database.psql(grant) }

            let history = try PostgresHistory(address: role.address)
            #expect(try history.runs(of: HistoryContract.run("x").series, limit: 10).count == 1)
            let writing = try grants(in: refused { try history.record(HistoryContract.run("2026-11-22T020000Z")) })
            #expect(
                writing.text.contains(
                    "may not record runs: the role \(role.name) lacks INSERT, UPDATE on runs and INSERT, DELETE on run_locations, run_findings;"
                ))
            #expect(writing.text.contains("GRANT INSERT, DELETE ON run_locations, run_findings TO \(role.name)"))
            #expect(try database.count("SELECT count(*) FROM runs") == 1)
            for grant in writing.statements { try database.psql(grant) }
            try history.record(HistoryContract.run("2026-11-22T020000Z"))
            #expect(try database.count("SELECT count(*) FROM runs") == 2)
        }

        private static func roleWithoutGrants() throws {
            let database = try PostgresServer.freshDatabase()
            _ = try PostgresHistory(address: try PostgresUnderTest.address(database.url))
            let role = try Role(database)
            defer { role.drop() }
            let refusal = try grants(in: refused { _ = try PostgresHistory(address: role.address) })
            #expect(refusal.text.contains("lacks SELECT on stocktake_schema, runs, run_locations, run_findings;"))
            #expect(!refusal.text.contains("SQLSTATE"))
            for grant in refusal.statements { try database.psql(grant) }
            _ = try PostgresHistory(address: role.address)
        }

        private static func roleWithoutCreate() throws {
            let database = try PostgresServer.freshDatabase()
            try database.psql("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
            let role = try Role(database)
            defer { role.drop() }
            let error = refused { _ = try PostgresHistory(address: role.address) }
            #expect(
                error.contains("may not make the history's tables: the role \(role.name) lacks CREATE on schema public")
            )
            #expect(error.contains("GRANT CREATE ON SCHEMA public TO \(role.name)"))
            #expect(try database.count("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0)
        }

        /// The message of the `.refused` error `body` throws (an empty string, and a failed expectation, otherwise).
        private static func refused(_ body: () throws -> Void) -> String {
            do {
                try body()
            } catch let error as HistoryError {
                #expect(error.kind == .refused, "\(error)")
                return "\(error)"
            } catch {
                Issue.record("not a HistoryError: \(error)")
            }
            Issue.record("nothing was refused")
            return ""
        }

        /// The GRANT statements a refusal says to run.
        private static func grants(in text: String) throws -> (text: String, statements: [String]) {
            let list = try #require(text.range(of: "run: ").map { text[$0.upperBound...] })
            return (text, list.components(separatedBy: "; ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        }

        /// A login role of the test's own, with a password, dropped (with its grants) at the end.
        struct Role {
            let name = "stocktake_role_" + UUID().uuidString.prefix(8).lowercased()
            let password = UUID().uuidString
            let database: PostgresServer.Database

            init(_ database: PostgresServer.Database) throws {
                self.database = database
                try database.psql("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'")
            }

            var address: PostgresAddress {
                get throws {
                    try PostgresAddress.parse(
                        database.url.replacingOccurrences(of: "stocktake@", with: "\(name)@"),
                        environment: ["PGPASSWORD": password])
                }
            }

            func drop() { _ = try? database.psql("DROP OWNED BY \(name); DROP ROLE \(name)") }
        }
    }
#endif
