import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct TmpLeftoversRuleTests {
    private func findings(
        _ rule: TmpLeftoversRule = TmpLeftoversRule(), exportedAt: ExportTime? = nil,
        _ build: (inout InventoryBuilder) -> Void
    ) -> [(path: String, finding: RuleFinding)] {
        var builder = InventoryBuilder()
        build(&builder)
        let inventory = builder.build()
        return rule.evaluate(PolicyContext(inventory: inventory, documentsExposed: nil, exportedAt: exportedAt))
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

    /// Xcode's download time, as the sample's AppDataInfo.plist records it (local wall clock, no zone).
    static let downloaded = ExportTime(seconds: 1_748_772_000, source: .downloadDate, isLocalTime: true)

    @Test(
        "a checkout re-dates every file after the recorded download: no age, whenever the files were checked out or pulled"
    )
    func timesAfterTheDownloadHaveNoAge() {
        let result = findings(exportedAt: Self.downloaded) { builder in
            // A fresh clone a year later, and one file updated by a pull ten days after that.
            builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_780_000_000 + 10 * 86_400)
            builder.add("tmp/uploads/a.mp4", apparentBytes: 96_000, modified: 1_780_000_000)
            builder.add("tmp/saved.txt", apparentBytes: 2_000, modified: 1_780_000_000)
        }
        #expect(result.isEmpty, "\(result.map(\.path))")
    }

    @Test("a large re-dated file still counts by its size, and says its age is unknown")
    func sizeStillCountsWithoutAnAge() throws {
        let result = findings(exportedAt: Self.downloaded) { builder in
            builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_780_000_000)
            builder.add("tmp/export.zip", apparentBytes: 5_000_000, modified: 1_780_000_000)
        }
        let only = try #require(result.first)
        #expect(result.count == 1 && only.path == "tmp/export.zip")
        #expect(only.finding.message.contains("of unknown age"), "\(only.finding.message)")
    }

    @Test("device times before the download keep their ages; a copy's file dated after it does not move the clock")
    func deviceTimesBeforeTheDownloadCount() throws {
        let result = findings(exportedAt: Self.downloaded) { builder in
            builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_748_772_000 - 60)
            builder.add("Documents/copied-later.txt", apparentBytes: 100, modified: 1_780_000_000)
            builder.add("tmp/uploads/a.mp4", apparentBytes: 96_000, modified: 1_748_772_000 - 3 * 86_400)
        }
        let only = try #require(result.first)
        #expect(result.count == 1 && only.path == "tmp/uploads")
        #expect(only.finding.message.contains("3 days older than the newest file"), "\(only.finding.message)")
    }

    @Test("a local download time may be up to a day off UTC: a file a few hours after it still has its age")
    func zoneSlack() {
        let result = findings(exportedAt: Self.downloaded) { builder in
            builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_748_772_000 + 8 * 3_600)
            builder.add("tmp/old.txt", apparentBytes: 100, modified: 1_748_772_000 - 2 * 86_400)
        }
        #expect(result.map(\.path) == ["tmp/old.txt"])
    }

    @Test("an export time read from a file's own modification time is no check: the copy set it too")
    func fileSystemExportTimesDoNotFilter() {
        let result = findings(exportedAt: ExportTime(seconds: 1_000, source: .inputFolder)) { builder in
            builder.add("Documents/notes.txt", apparentBytes: 100, modified: 1_780_000_000)
            builder.add("tmp/old.txt", apparentBytes: 100, modified: 1_780_000_000 - 2 * 86_400)
        }
        #expect(result.map(\.path) == ["tmp/old.txt"])
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
