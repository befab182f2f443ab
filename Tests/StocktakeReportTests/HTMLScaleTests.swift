import Foundation
import StocktakeModel
import StocktakeRendering
import TestSupport
import Testing

@testable import StocktakeReport

/// The page must stay small and bounded whatever the container: aggregates and top lists only.
@Suite struct HTMLScaleTests {
    private func render(_ inventory: Inventory) -> String {
        HTMLReportWriter().render(SyntheticReport.make(inventory: inventory))
    }

    private func treeRows(_ html: String) -> (folders: Int, summaries: [String]) {
        let tree =
            html.components(separatedBy: "<div class=\"tree\">").dropFirst().first?
            .components(separatedBy: "</section>").first ?? ""
        let rows = tree.components(separatedBy: "class=\"t-row").dropFirst()
        let summaries = rows.filter { $0.hasPrefix(" t-more") }
            .map { $0.components(separatedBy: "<span class=\"t-name\">").dropFirst().first?.prefix { $0 != "<" } ?? "" }
            .map(String.init)
        return (rows.count - summaries.count, summaries)
    }

    @Test func manyFilesGiveASmallPage() throws {
        var builder = InventoryBuilder()
        for folder in 0..<200 {
            for file in 0..<500 {
                builder.add(
                    "Documents/f\(folder)/file-\(file).bin", apparentBytes: Int64(1_000 + (folder * 500 + file) % 9_000)
                )
            }
        }
        let html = render(builder.build())
        #expect(html.utf8.count < 500_000, "page is \(html.utf8.count) bytes for 100,000 files")
        #expect(HTMLStructure(html).problems.isEmpty)
        let largest = try #require(
            html.components(separatedBy: "<section id=\"largest-files\"").dropFirst().first?
                .components(separatedBy: "</section>").first)
        #expect(largest.components(separatedBy: "<tr><td data-label=\"Path\" class=\"path\">").count - 1 == 200)
        // 200 folders of about 0.5% each: those at or above the threshold are listed (with their 500 files), the others summed in one row under Documents.
        let (folders, summaries) = treeRows(html)
        let listed = folders - 2  // the root and Documents
        #expect(listed > 0 && listed < 200)
        #expect(summaries == ["\(200 - listed) smaller folders"])
        #expect(html.contains("<span class=\"t-items\">500 files</span>"))
    }

    @Test func treeNeverListsMoreThanTheBudget() {
        var builder = InventoryBuilder()
        // 100 branches, each a chain of 30 folders ending in a 1 MB file: 3,000 folders above 0.5% each.
        for branch in 0..<100 {
            let chain = (0..<30).map { "level\($0)" }.joined(separator: "/")
            builder.add("Library/Application Support/b\(branch)/\(chain)/blob.bin", apparentBytes: 1_000_000)
        }
        let html = render(builder.build())
        let (folders, _) = treeRows(html)
        #expect(folders == DirectoryTreeHTML.maximumNodes)
        #expect(html.contains("more folders above the threshold are summed"))
        #expect(HTMLStructure(html).problems.isEmpty)
    }

    @Test func deepChainsStopAtTheDepthLimit() {
        var builder = InventoryBuilder()
        let chain = (0..<300).map { "d\($0)" }.joined(separator: "/")
        builder.add("tmp/\(chain)/deep.bin", apparentBytes: 5_000_000)
        let html = render(builder.build())
        let (folders, _) = treeRows(html)
        #expect(folders == DirectoryTreeHTML.maximumDepth + 1, "root plus one folder per level down to the limit")
        #expect(HTMLStructure(html).problems.isEmpty)
    }

    @Test func emptyInventoryRenders() {
        let empty = Inventory(
            entries: [], names: [], symlinkTargets: [:], issues: [],
            evidence: SyntheticContainer.evidence)
        let html = HTMLReportWriter().render(
            Report(
                tool: ToolInfo(version: "0"), generatedAt: Date(timeIntervalSince1970: 0),
                container: SyntheticContainer.description(), inventory: empty))
        #expect(html.contains("The container is empty."))
        #expect(HTMLStructure(html).problems.isEmpty)
    }

    @Test func manyIssuesAreGroupedByReason() {
        let issues = (0..<2_000).map {
            ScanIssue(path: Array("tmp/gone-\($0)".utf8), reason: .vanished, detail: "gone")
        }
        let html = render(InventoryBuilder().build(issues: issues))
        // One row per reason: the 2,000 vanished files, and the synthetic container's malformed metadata plist.
        #expect(html.components(separatedBy: "<td data-label=\"Reason\">vanished</td>").count - 1 == 1)
        #expect(html.components(separatedBy: "<td data-label=\"Reason\">malformedMetadata</td>").count - 1 == 1)
        #expect(html.contains("<td data-label=\"Entries\" class=\"num\" data-value=\"2000\">2,000</td>"))
        // The paths behind the disclosure are capped; the JSON report has the rest.
        #expect(html.components(separatedBy: "tmp/<wbr>gone-").count - 1 == ReportTablesHTML.pathsPerReason)
        #expect(html.contains("1,900 more are listed in the JSON report"))
    }

    @Test func propertyListsAreBounded() {
        var nested: PropertyListValue = .string("bottom")
        for level in 0..<20 { nested = .dictionary(["level\(level)": nested]) }
        let value: PropertyListValue = .dictionary([
            "Huge": .array((0..<10_000).map { .integer(Int64($0)) }),
            "Deep": nested,
            "Long": .string(String(repeating: "x", count: 1_000_000)),
            "Blob": .data([UInt8](repeating: 0xAB, count: 100_000)),
        ])
        let html = PropertyListHTML.render(value).markup
        #expect(html.utf8.count < 30_000, "rendered \(html.utf8.count) bytes")
        #expect(html.contains("9,800 of 10,000 items not shown"))
        #expect(html.contains("nested too deep to show"))
        #expect(html.contains("… (1000000 characters)"))
        #expect(html.contains("100,000 bytes: <code>abababab"))
        #expect(!html.contains("bottom"))
        #expect(HTMLStructure(html).problems.isEmpty)
    }
}
