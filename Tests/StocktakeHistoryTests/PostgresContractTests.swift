#if PostgreSQL
    import Foundation
    import StocktakePostgres
    import TestSupport
    import Testing

    @testable import StocktakeHistory

    /// The history contract on a real PostgreSQL server (each test in a database of its own), plus what only a
    /// server has: a database another program uses, several connections at once, and its failures.
    @Suite(.enabled(if: PostgresServer.enabled, PostgresServer.hint)) struct PostgresContractTests {
        @Test func aRecordedRunReadsBackIdentically() async throws {
            try await onThread { try HistoryContract.aRecordedRunReadsBackIdentically(try PostgresUnderTest()) }
        }

        @Test func recordingTheSameRunAgainReplacesIt() async throws {
            try await onThread { try HistoryContract.recordingTheSameRunAgainReplacesIt(try PostgresUnderTest()) }
        }

        @Test func theSameRunIDFromTwoSourcesIsTwoRuns() async throws {
            try await onThread { try HistoryContract.theSameRunIDFromTwoSourcesIsTwoRuns(try PostgresUnderTest()) }
        }

        @Test func runsComeOldestFirstAndLimited() async throws {
            try await onThread { try HistoryContract.runsComeOldestFirstAndLimited(try PostgresUnderTest()) }
        }

        @Test func textIsBoundNotSpliced() async throws {
            try await onThread { try HistoryContract.textIsBoundNotSpliced(try PostgresUnderTest()) }
        }

        @Test func everyEngineTakesTheSameRuns() async throws {
            try await onThread { try HistoryContract.everyEngineTakesTheSameRuns(try PostgresUnderTest()) }
        }

        @Test func aNewStoreHasTheSchemaSQLiteMakes() async throws {
            try await onThread { try HistoryContract.aNewStoreHasTheSchemaSQLiteMakes(try PostgresUnderTest()) }
        }

        @Test func aVersionTwoStoreIsMigratedAndKeepsItsRuns() async throws {
            try await onThread {
                try HistoryContract.aVersionTwoStoreIsMigratedAndKeepsItsRuns(try PostgresUnderTest(schemaVersion: 2))
            }
        }

        @Test func aReaderNeverSeesHalfARun() async throws {
            try await onThread { try HistoryContract.aReaderNeverSeesHalfARun(try PostgresUnderTest()) }
        }

        @Test func aStoreFromANewerStocktakeIsRefusedUntouched() async throws {
            try await onThread {
                try HistoryContract.aStoreFromANewerStocktakeIsRefusedUntouched(try PostgresUnderTest())
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

        init(schemaVersion: Int = HistorySchema.currentVersion) throws {
            database = try PostgresServer.freshDatabase()
            store = try PostgresHistory(address: try Self.address(database.url), schemaVersion: schemaVersion)
        }

        static func address(_ url: String) throws -> PostgresAddress {
            try PostgresAddress.parse(url, environment: PostgresServer.loginEnvironment)
        }

        func reopen(schemaVersion: Int) throws -> any RunHistory {
            try PostgresHistory(address: try Self.address(database.url), schemaVersion: schemaVersion)
        }

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

    /// Runs `work` on a thread of its own and awaits it. The store blocks its calling thread until its task on the
    /// concurrency pool is done: a test calling it from a pool thread would take a pool thread from that task.
    func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
#endif
