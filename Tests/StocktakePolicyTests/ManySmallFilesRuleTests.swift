import StocktakeModel
import Testing

@testable import StocktakePolicy

@Suite struct ManySmallFilesRuleTests {
    private func paths(_ rule: ManySmallFilesRule, _ build: (inout InventoryBuilder) -> Void) -> [(
        path: String, finding: RuleFinding
    )] {
        var builder = InventoryBuilder()
        build(&builder)
        let inventory = builder.build()
        return rule.evaluate(PolicyContext(inventory: inventory, documentsExposed: nil)).map {
            (PathText.display(inventory.path($0.index)), $0)
        }
    }

    @Test func anAncestorQualifiesOnItsOwnFilesOnly() {
        let rule = ManySmallFilesRule(minFiles: 10, maxMedianBytes: 100)
        let results = paths(rule) { builder in
            for n in 0..<10 { builder.add("Documents/a/deep/\(n)", apparentBytes: 10) }
            for n in 0..<9 { builder.add("Documents/a/\(n)", apparentBytes: 10) }
            for n in 0..<10 { builder.add("Library/b/\(n)", apparentBytes: 10) }
            for n in 0..<10 { builder.add("Library/\(n)", apparentBytes: 10) }
        }
        // Documents/a has 9 files of its own once deep/ is reported: not enough; Library has 10 of its own.
        #expect(results.map(\.path) == ["Documents/a/deep", "Library/b", "Library"])
    }

    @Test func theMedianDecisionIsExactAtTheThreshold() {
        let rule = ManySmallFilesRule(minFiles: 4, maxMedianBytes: 100)
        // Lower median of [100, 100, 101, 101] is 100: qualifies; of [100, 101, 101, 101] it is 101: does not.
        let atThreshold = paths(rule) { builder in
            for (n, size) in [100, 100, 101, 101].enumerated() { builder.add("d/\(n)", apparentBytes: Int64(size)) }
        }
        let over = paths(rule) { builder in
            for (n, size) in [100, 101, 101, 101].enumerated() { builder.add("d/\(n)", apparentBytes: Int64(size)) }
        }
        #expect(atThreshold.map(\.path) == ["d"])
        #expect(over.isEmpty)
    }

    @Test func theMessageBoundsTheMedianAndTheBytesAreAllocated() throws {
        let rule = ManySmallFilesRule(minFiles: 3, maxMedianBytes: 16_384)
        let results = paths(rule) { builder in
            for n in 0..<3 { builder.add("d/\(n)", apparentBytes: 600) }
        }
        let finding = try #require(results.first?.finding)
        #expect(finding.bytes == Int64(3 * 4_096))
        // 600 lies in the 512–1023 bucket: the message says "at most 1 KB" (1,023 bytes).
        #expect(finding.message.contains("3 files with a median size of at most 1.0 KB"), "\(finding.message)")
    }

    @Test func sidecarsAndSystemFilesAreNotCounted() {
        let rule = ManySmallFilesRule(minFiles: 3, maxMedianBytes: 16_384)
        let results = paths(rule) { builder in
            builder.add("d/1", apparentBytes: 10)
            builder.add("d/._1", apparentBytes: 4_096, flags: .transportArtefact)
            builder.add("d/Cache.db", apparentBytes: 10, flags: .systemManaged)
        }
        #expect(results.isEmpty)
    }

    @Test func histogramBucketsCoverTheWholeRange() {
        var tally = ManySmallFilesRule.SizeTally()
        let huge = Entry(
            parent: 0, nameOffset: 0, nameLength: 0, type: .file, kind: .unknown, location: .other, flags: [],
            backup: .unknown, evidence: .noEvidence, apparentBytes: .max, allocatedBytes: .max, modified: 0,
            excludedBy: -1)
        tally.add(huge, maxMedianBytes: 100)
        tally.add(huge, maxMedianBytes: 100)
        #expect(tally.medianUpperBound() == .max)
        #expect(tally.allocatedBytes == .max)
        #expect(!tally.medianIsAtMost(100))
    }
}
