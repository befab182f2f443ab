import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct SQLiteSidecarRuleTests {
    private func evaluate(_ rule: SQLiteSidecarRule = SQLiteSidecarRule(), _ build: (inout InventoryBuilder) -> Void)
        -> [(path: String, finding: RuleFinding)]
    {
        var builder = InventoryBuilder()
        build(&builder)
        let inventory = builder.build()
        return rule.evaluate(PolicyContext(inventory: inventory, documentsExposed: nil))
            .map { (PathText.display(inventory.path($0.index)), $0) }
    }

    @Test func theTwoWalCasesHaveDifferentFingerprints() throws {
        let oversized = try #require(
            evaluate { builder in
                builder.add("Library/Application Support/a.sqlite", apparentBytes: 1_000_000)
                builder.add("Library/Application Support/a.sqlite-wal", apparentBytes: 6_000_000)
            }.first)
        let orphaned = try #require(
            evaluate { builder in
                builder.add("Library/Application Support/a.sqlite-wal", apparentBytes: 6_000_000)
            }.first)
        #expect(oversized.path == orphaned.path)
        #expect(oversized.finding.discriminator != orphaned.finding.discriminator)
        #expect(oversized.finding.message.contains("6.0 MB") && oversized.finding.message.contains("1.0 MB"))
        #expect(oversized.finding.bytes == Int64(6_000_000 / 4_096 * 4_096 + 4_096))
        #expect(orphaned.finding.message.contains("no database a.sqlite"))
    }

    @Test func theFloorIsAnOption() {
        // The sample's Sync store: a 123,632-byte WAL over a 16,384-byte database, 15 commits never checkpointed.
        let build: (inout InventoryBuilder) -> Void = { builder in
            builder.add("Library/Application Support/Sync/sync-state.sqlite", apparentBytes: 16_384)
            builder.add("Library/Application Support/Sync/sync-state.sqlite-wal", apparentBytes: 123_632)
            builder.add("Library/Application Support/Sync/sync-state.sqlite-shm", apparentBytes: 32_768)
        }
        #expect(evaluate(SQLiteSidecarRule(), build).isEmpty)
        #expect(
            evaluate(SQLiteSidecarRule(walFloorBytes: 100_000), build).map(\.path) == [
                "Library/Application Support/Sync/sync-state.sqlite-wal"
            ])
    }

    @Test func emptySidecarsCountByNameAndADatabaseMustBeAFile() {
        let result = evaluate { builder in
            builder.add("Library/Application Support/gone.db-journal", apparentBytes: 0)
            builder.add("Library/Application Support/store.sqlite/readme.txt", apparentBytes: 10)
            builder.add("Library/Application Support/store.sqlite-shm", apparentBytes: 32_768)
        }
        #expect(
            result.map(\.path) == [
                "Library/Application Support/gone.db-journal", "Library/Application Support/store.sqlite-shm",
            ])
    }

    @Test func aDatabaseInAnotherFolderDoesNotCount() {
        let result = evaluate { builder in
            builder.add("Documents/chat-index.sqlite", apparentBytes: 36_864)
            builder.add("Library/Application Support/chat-index.sqlite-wal", apparentBytes: 4_152)
        }
        #expect(result.map(\.path) == ["Library/Application Support/chat-index.sqlite-wal"])
    }
}
