import StocktakeModel
@testable import StocktakePolicy
import Testing

@Suite struct TmpLeftoversRuleTests {
    private func findings(_ rule: TmpLeftoversRule = TmpLeftoversRule(), _ build: (inout InventoryBuilder) -> Void) -> [(path: String, finding: RuleFinding)] {
        var builder = InventoryBuilder()
        build(&builder)
        let inventory = builder.build()
        return rule.evaluate(PolicyContext(inventory: inventory, documentsExposed: nil))
            .map { (PathText.display(inventory.path($0.index)), $0) }
    }

    @Test func ageCountsFromTheNewestFileNotFromToday() {
        // Everything is years old by the wall clock; only the container's own clock matters.
        let result = findings { builder in
            builder.add("Library/Caches/logs/app.log", apparentBytes: 100, modified: 1_000_000_000)
            builder.add("tmp/recent.jpg", apparentBytes: 100, modified: 1_000_000_000 - 3_600)
            builder.add("tmp/stale.jpg", apparentBytes: 100, modified: 1_000_000_000 - 3 * 86_400 + 100)
        }
        #expect(result.map(\.path) == ["tmp/stale.jpg"])
        #expect(result.first?.finding.message.contains("3 days older than the newest file") == true)
    }

    @Test func anAppleDoubleSidecarWrittenByTheCopyDoesNotMoveTheClock() {
        let result = findings { builder in
            builder.add("Documents/a.txt", apparentBytes: 100, modified: 1_000_000_000)
            builder.add("tmp/upload.jpg", apparentBytes: 100, modified: 1_000_000_000 - 3_600)
            builder.add("Documents/._a.txt", apparentBytes: 4_096, flags: .transportArtefact, modified: 1_900_000_000)
        }
        #expect(result.isEmpty)
    }

    @Test func aFolderIsOneFindingWithItsTotalAndItsOldestFile() throws {
        let result = findings { builder in
            builder.add("Documents/a.txt", apparentBytes: 100, modified: 1_000_000_000)
            builder.add("tmp/uploads/a.mp4", apparentBytes: 96_000, modified: 1_000_000_000 - 3_600)
            builder.add("tmp/uploads/nested/b.jpg", apparentBytes: 41_000, modified: 1_000_000_000 - 2 * 86_400)
        }
        let only = try #require(result.first)
        #expect(result.count == 1)
        #expect(only.path == "tmp/uploads")
        // 96,000 → 98,304 and 41,000 → 45,056 allocated, plus two folders of 4,096.
        #expect(only.finding.bytes == Int64(98_304 + 45_056 + 2 * 4_096))
        #expect(only.finding.message.contains("2 files") && only.finding.message.contains("2 days"))
    }

    @Test("a renamed folder at the top of tmp is interrupted-deletion's; one deeper down counts here")
    func renamedFoldersAtTheTopAreLeftToInterruptedDeletion() throws {
        let result = findings { builder in
            builder.add("Documents/a.txt", apparentBytes: 100, modified: 1_000_000_000)
            builder.add("tmp/.trash-2/old.bin", apparentBytes: 9_000_000, modified: 1_000_000_000 - 30 * 86_400)
            builder.add("tmp/work/part.bin", apparentBytes: 1_000, modified: 1_000_000_000 - 2 * 86_400)
            builder.add("tmp/work/.trash-1/big.bin", apparentBytes: 50_000_000, modified: 1_000_000_000 - 30 * 86_400)
        }
        let only = try #require(result.first)
        #expect(result.count == 1)
        #expect(only.path == "tmp/work")
        #expect(only.finding.message.contains("2 files") && only.finding.message.contains("30 days"))
    }

    @Test func thresholdsAreOptions() {
        let build: (inout InventoryBuilder) -> Void = { builder in
            builder.add("Documents/a.txt", apparentBytes: 100, modified: 1_000_000_000)
            builder.add("tmp/a.bin", apparentBytes: 200_000, modified: 1_000_000_000 - 600)
        }
        #expect(findings(TmpLeftoversRule(), build).isEmpty)
        #expect(findings(TmpLeftoversRule(minBytes: 100_000, minAgeSeconds: 86_400), build).count == 1)
        #expect(findings(TmpLeftoversRule(minBytes: 1_000_000, minAgeSeconds: 300), build).count == 1)
    }

    @Test func hostileTimesDoNotTrap() {
        let result = findings { builder in
            builder.add("Documents/a.txt", apparentBytes: 100, modified: Int64.max)
            builder.add("tmp/a.bin", apparentBytes: 100, modified: Int64.min)
        }
        #expect(result.count == 1)
        #expect(TmpLeftoversRule.age(of: Int64.min, clock: Int64.max) == Int64.max)
    }

    @Test func agesReadAsPeopleSayThem() {
        #expect(TmpLeftoversRule.describe(seconds: 259_080) == "3 days")
        #expect(TmpLeftoversRule.describe(seconds: 86_400) == "1 day")
        #expect(TmpLeftoversRule.describe(seconds: 5 * 3_600) == "5 hours")
        #expect(TmpLeftoversRule.describe(seconds: 40) == "40 seconds")
        #expect(TmpLeftoversRule.describe(seconds: Int64.max).hasSuffix("days"))
    }
}
