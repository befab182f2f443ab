import Foundation
import TestSupport
import Testing

@testable import StocktakeDiff

/// Each diff format of the synthetic diff must match its committed golden file byte for byte. After an
/// intended change, regenerate with `STOCKTAKE_RECORD_GOLDEN=1 swift test --disable-xctest --filter DiffGoldenTests`
/// and review the diff of `Golden/synthetic-diff.*`.
@Suite struct DiffGoldenTests {
    static let golden = "Tests/StocktakeDiffTests/Golden/"

    static func fileName(_ format: DiffFormat) -> String {
        switch format {
        case .text: "synthetic-diff.txt"
        case .markdown: "synthetic-diff.md"
        case .json: "synthetic-diff.json"
        case .html: "synthetic-diff.html"
        }
    }

    static func rendered(_ format: DiffFormat, options: DiffRenderOptions = SyntheticDiff.options) throws -> [UInt8] {
        try DiffWriter.render(SyntheticDiff.make(), gates: SyntheticDiff.gates, format: format, options: options)
    }

    @Test(arguments: DiffFormat.allCases)
    func matchesGoldenFile(_ format: DiffFormat) throws {
        try Golden.check(Data(try Self.rendered(format)), against: Self.golden + Self.fileName(format))
    }

    @Test(arguments: DiffFormat.allCases)
    func renderingIsDeterministic(_ format: DiffFormat) throws {
        #expect(try Self.rendered(format) == Self.rendered(format))
    }

    /// Sizes at the edges of Int64 and a limit of 0 must render, not trap, in every format.
    @Test(arguments: DiffFormat.allCases)
    func edgeCasesRender(_ format: DiffFormat) throws {
        for limit in [0, 1] {
            let bytes = try DiffWriter.render(
                DiffJSONWriterTests.extremeDiff(), gates: [], format: format,
                options: DiffRenderOptions(limit: limit, tool: SyntheticDiff.tool))
            #expect(!bytes.isEmpty)
        }
    }

    @Test func limitZeroPutsEveryRowInTheOthersLine() throws {
        var negative = SyntheticDiff.options
        negative.limit = -1
        #expect(try DiffWriter.render(SyntheticDiff.make(), gates: [], format: .text, options: negative).count > 0)
        let text = try SyntheticDiff.render(.text, limit: 0)
        #expect(text.contains("Added files (5)\n  … and 5 others (+2.0 MB)\n"), "no table header without rows")
    }
}
