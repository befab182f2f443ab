#if PostgreSQL
    import Foundation
    import StocktakePostgres
    import TestSupport
    import Testing

    @testable import StocktakeHistory

    /// What only a server has (the contract itself is held in `HistoryContractTests`): a database another program
    /// uses, several connections at once, its failures, and no schema version but none and the baseline.
    @Suite(.enabled(if: PostgresServer.enabled, PostgresServer.hint)) struct PostgresContractTests {
        @Test func aVersionNoStocktakeMadeOnPostgreSQLIsRefused() async throws {
            try await onThread {
                let store = try PostgresUnderTest()
                try store.history.record(HistoryContract.run("2026-11-21T020000Z"))
                try store.setVersion(2)
                #expect {
                    _ = try store.reopen()
                } throws: { error in
                    (error as? HistoryError)?.kind == .notAHistoryStore
                        && "\(error)".contains("schema version 2 in stocktake_schema, which no stocktake makes")
                }
                #expect(try store.rowCount("runs") == 1)
            }
        }

        @Test func aDatabaseWithAnotherProgramsRunsTableIsRefusedUntouched() async throws {
            try await onThread { try Self.anotherProgramsTable() }
        }

        private static func anotherProgramsTable() throws {
            let database = try PostgresServer.freshDatabase()
            try database.psql("CREATE TABLE runs (id INTEGER, payload TEXT); INSERT INTO runs VALUES (1, 'theirs')")
            #expect {
                _ = try PostgresHistory(address: try PostgresUnderTest.address(database.url))
            } throws: { error in
                (error as? HistoryError)?.kind == .notAHistoryStore && "\(error)".contains("did not make")
            }
            #expect(try database.psql("SELECT payload FROM runs") == "theirs\n")
            #expect(try database.count("SELECT count(*) FROM pg_tables WHERE tablename = 'stocktake_schema'") == 0)
        }

        /// Two stores opening one new database at once: the advisory lock lets one migrate; the other finds it done.
        @Test func storesOpeningANewDatabaseTogetherMigrateItOnce() async throws {
            let database = try PostgresServer.freshDatabase()
            let address = try PostgresUnderTest.address(database.url)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        try await onThread {
                            let history = try PostgresHistory(address: address)
                            try history.record(HistoryContract.run("2026-11-2\(worker)T020000Z"))
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try database.count("SELECT version FROM stocktake_schema") == HistorySchema.currentVersion)
            #expect(try database.count("SELECT count(*) FROM stocktake_schema") == 1)
            #expect(try database.count("SELECT count(*) FROM runs") == 6)
        }

        @Test func aPasswordIsNeverInAMessage() async throws {
            try await onThread { try Self.wrongPassword() }
        }

        private static func wrongPassword() throws {
            let secret = "not-the-password-\(UUID().uuidString)"
            let url = try PostgresServer.serverURL().replacingOccurrences(
                of: "stocktake@", with: "stocktake:\(secret)@")
            let address = try PostgresAddress.parse(url, environment: [:])
            #expect {
                _ = try PostgresHistory(address: address)
            } throws: { error in
                let text = "\(error)"
                return (error as? HistoryError)?.kind == .refused
                    && text.contains("refused the password for user stocktake")
                    && text.contains("the URL") && !text.contains(secret)
            }
        }
    }

    final class PostgresUnderTest: HistoryUnderTest {
        let database: PostgresServer.Database
        let store: PostgresHistory
        var history: any RunHistory { store }

        init() throws {
            database = try PostgresServer.freshDatabase()
            store = try PostgresHistory(address: try Self.address(database.url))
        }

        static func address(_ url: String) throws -> PostgresAddress {
            try PostgresAddress.parse(url, environment: PostgresServer.loginEnvironment)
        }

        func reopen() throws -> any RunHistory { try PostgresHistory(address: try Self.address(database.url)) }

        func rowCount(_ table: String) throws -> Int { try database.count("SELECT count(*) FROM \(table)") }

        func columns() throws -> [String: [String]] {
            let rows = try database.psql(
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
            )
            var tables: [String: [String]] = [:]
            for line in rows.split(separator: "\n") {
                let parts = line.split(separator: "|", maxSplits: 1).map(String.init)
                if parts.count == 2 { tables[parts[0], default: []].append(parts[1]) }
            }
            return tables
        }

        func execute(_ sql: String) throws { try database.psql(sql) }

        func setVersion(_ version: Int) throws { try database.psql("UPDATE stocktake_schema SET version = \(version)") }
    }
#endif
