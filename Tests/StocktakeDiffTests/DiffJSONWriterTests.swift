import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeDiff

/// The JSON diff as a script reads it: valid JSON, sorted keys, valid against Reports/diff.schema.json,
/// integer bytes, every row of every list whatever the limit, no NaN or infinity.
@Suite struct DiffJSONWriterTests {
    static let repository = Repository.root

    static func bytes(_ diff: ReportDiff = SyntheticDiff.make(), limit: Int = 3) throws -> [UInt8] {
        try DiffWriter.render(
            diff, gates: SyntheticDiff.gates, format: .json,
            options: DiffRenderOptions(limit: limit, tool: SyntheticDiff.tool))
    }

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// Sizes at the edges: a side of Int64.max bytes grown from 1 byte.
    static func extremeDiff() -> ReportDiff {
        let huge = SizeTotal(files: Int(Int32.max), apparentBytes: .max, allocatedBytes: .max)
        let tiny = SizeTotal(files: 1, apparentBytes: 1, allocatedBytes: 1)
        let base = SyntheticDiff.make()
        return ReportDiff(
            old: base.old, new: base.new, totals: [SizeChange(id: "onDisk", old: tiny, new: huge)],
            locations: [
                SizeChange(id: "documents", old: tiny, new: huge), SizeChange(id: "caches", old: huge, new: nil),
            ],
            directories: ListHead(
                shown: [SizeChange(id: "Documents", old: tiny, new: huge)], othersCount: 0, othersAllocatedDelta: 0),
            files: FileChanges(
                added: [], removed: [], changed: [SizeChange(id: "Documents/big", old: tiny, new: huge)], moved: [],
                leftBehind: []),
            groups: [], budgets: [], findings: FindingChanges(new: [], resolved: [], unchanged: 0))
    }

    @Test func everyObjectHasStrictlySortedKeys() throws {
        for diff in [SyntheticDiff.make(), Self.extremeDiff()] {
            let document = try OrderedJSON.parse(try Self.bytes(diff))
            var objects = 0
            document.forEachObject { location, pairs in
                objects += 1
                for (a, b) in zip(pairs, pairs.dropFirst()) {
                    #expect(
                        a.key.precedesByCodePoints(b.key), "keys out of order at \(location): \(a.key) then \(b.key)")
                }
            }
            #expect(objects > 20)
        }
    }

    @Test(
        .enabled(
            if: ExternalTools.hasJSONSchema || OutsideTools.required, "\(ExternalTools.jsonSchemaHint)"))
    func passesTheSchemaAndKeyOrderCheck() throws {
        for diff in [SyntheticDiff.make(), SyntheticDiff.withAddedFiles(30), Self.extremeDiff()] {
            let file = try ExternalTools.temporaryFile("diff.json", try Self.bytes(diff))
            try ExternalTools.checkReport(file, schema: Self.repository + "/Reports/diff.schema.json")
        }
    }

    @Test func listsEveryRowWhateverTheLimit() throws {
        let document = try Self.object(try Self.bytes(SyntheticDiff.withAddedFiles(30), limit: 20))
        let added = try #require((document["files"] as? [String: Any])?["added"] as? [[String: Any]])
        #expect(added.count == 30)
        #expect(added.first?["path"] as? String == "Documents/many/file-0.bin")
        #expect(added.first?["location"] as? String == "documents")
        let directories = try #require(document["directories"] as? [[String: Any]])
        #expect(directories.count == 5, "every row the model ranked")
        let notShown = try #require(document["directoriesNotShown"] as? [String: Any])
        #expect(notShown["count"] as? Int == 4 && notShown["allocatedBytes"] as? Int == -212_992)
    }

    @Test func rowsCarryBothSidesTheDeltaAndThePercent() throws {
        let document = try OrderedJSON.parse(try Self.bytes())
        let locations = try #require(document["locations"])
        #expect(locations["systemData"]?["old"] == .null, "a side that lacks the row is null")
        #expect(locations["systemData"]?["percent"]?["allocatedBytes"] == .null, "no percent from nothing")
        #expect(locations["other"]?["percent"]?["allocatedBytes"] == .number("0.0"), "0 when both sides are 0")
        #expect(locations["tmp"]?["percent"]?["files"] == .number("-100.0"))
        #expect(locations["applicationSupport"]?["delta"]?["allocatedBytes"] == .number("2000000"))
        #expect(locations["applicationSupport"]?["percent"]?["allocatedBytes"] == .number("25.0"))
        #expect(document["totals"]?["backup"]?["excluded"]?["new"]?["allocatedBytes"] == .number("3000000"))
        let moved = try #require(document["files"]?["leftBehind"])
        guard case .array(let moves) = moved, let move = moves.first else {
            Issue.record("no left-behind row")
            return
        }
        #expect(move["oldPath"] == .string("Documents/Attachments/photo-1.jpg"))
        #expect(move["path"] == .string("Library/Application Support/Attachments/photo-1.jpg"))
        #expect(move["oldLocation"] == .string("documents") && move["location"] == .string("applicationSupport"))
        #expect(document["groups"]?["chats"] != nil)
        #expect(document["findings"]?["unchanged"] == .number("5"))
        #expect(document["tool"]?["version"] == .string("0.1.0-test"))
    }

    @Test func namesAreExactAndBytesAreIntegers() throws {
        let document = try OrderedJSON.parse(try Self.bytes())
        let paths = document.values(forKeys: ["path"]).compactMap {
            if case .string(let path) = $0.value { path } else { nil }
        }
        #expect(paths.contains(SyntheticDiff.escapeName), "the ESC character kept exactly (JSON-escaped)")
        #expect(paths.contains(SyntheticDiff.pipeName) && paths.contains(SyntheticDiff.japaneseName))
        for (location, value) in document.values(forKeys: ["allocatedBytes", "apparentBytes", "files"])
        where !location.contains("percent") {
            if case .number(let text) = value {
                #expect(!text.contains(".") && !text.contains("e"), "\(location): \(text)")
            }
        }
    }

    @Test func extremeSizesStayValidJSON() throws {
        let bytes = try Self.bytes(Self.extremeDiff())
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("nan") && !text.contains("inf"))
        _ = try Self.object(bytes)
    }
}
