import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import TestSupport
import Testing

@testable import StocktakeReport

/// The report's treemap against the report's own figures: the tiles add up to the on-disk total, a file's colour is
/// its kind of content, backup states and findings show, and the section is bounded at any size.
@Suite struct ContainerTreemapTests {
    static func report(_ inventory: Inventory, findings: [Finding] = []) -> Report {
        Report(
            tool: ToolInfo(version: "0.1.0-test"),
            generatedAt: Date(timeIntervalSince1970: SyntheticContainer.generatedAtSecondsSince1970),
            container: SyntheticContainer.description(), inventory: inventory, findings: findings)
    }

    static func map(_ html: String) -> String {
        html.components(separatedBy: "<section id=\"map\"").dropFirst().first?.components(separatedBy: "</section>")
            .first ?? ""
    }

    /// The start tag of the tile whose title begins with `path`.
    static func tileTag(_ map: String, path: String) -> String? {
        guard let title = map.range(of: "<title>" + path + "\n") else { return nil }
        guard let start = map.range(of: "<svg x=", options: .backwards, range: map.startIndex..<title.lowerBound) else {
            return nil
        }
        return String(
            map[
                start
                    .lowerBound..<(map.range(of: ">", range: start.upperBound..<map.endIndex)?.upperBound
                    ?? map.endIndex)])
    }

    @Test func tilesAddUpToTheOnDiskTotal() {
        let inventory = SyntheticContainer.inventory()
        let layout = TreemapLayout(inventory)
        let root = layout.views[0]
        let ownBlocks = inventory.entries[0].allocatedBytes
        #expect(root.tiles.reduce(0) { $0 + $1.bytes } + ownBlocks == inventory.totals.onDisk.allocatedBytes)
        #expect(layout.totalBytes == inventory.totals.onDisk.allocatedBytes)
        // Each location's top folder is one tile of the root's children, its size the location's folder total.
        let documents = try! #require(inventory.index(ofPath: Array("Documents".utf8)))
        #expect(
            root.tiles.first { $0.node == documents }?.bytes == inventory.directoryTotals[documents]?.allocatedBytes)
    }

    @Test func tilesShowKindBackupAndFindings() throws {
        var builder = InventoryBuilder()
        builder.add("Documents/big.db", apparentBytes: 4_000_000, kind: .sqlite)
        builder.add("Documents/photo.jpg", apparentBytes: 1_000_000, kind: .jpeg)
        builder.add("Library/Caches/cache.bin", apparentBytes: 3_000_000)
        builder.add("Library/Application Support/Stickers", type: .directory, backup: .excluded, evidence: .xattr)
        builder.add(
            "Library/Application Support/Stickers/pack.bin", apparentBytes: 2_000_000, backup: .excluded,
            evidence: .ancestor)
        let finding = Finding(
            rule: "large-file-in-documents", severity: .error, path: "Documents/big.db", message: "m", fix: "f",
            fingerprint: "x", bytes: nil)
        let html = HTMLReportWriter().render(Self.report(builder.build(), findings: [finding]))
        let map = Self.map(html)

        let documents = try #require(Self.tileTag(map, path: "Documents"))
        #expect(documents.contains("tm-d") && !documents.contains("sv-"), "only the finding's own tile is outlined")
        let big = try #require(Self.tileTag(map, path: "Documents/big.db"))
        #expect(big.contains("k-database") && big.contains("sv-error"), "\(big)")
        let photo = try #require(Self.tileTag(map, path: "Documents/photo.jpg"))
        #expect(photo.contains("k-image") && !photo.contains("sv-"), "another kind, another colour, in one location")
        let caches = try #require(Self.tileTag(map, path: "Library/Caches"))
        #expect(caches.contains("b-x") && !caches.contains("sv-"), "iOS never backs Caches up: faded")
        #expect(map.contains("Documents/big.db\n4.0 MB · "), "the title gives path and size")
        #expect(map.contains("1 finding about it, the worst error"))
        #expect(map.contains(">databases</span>") && map.contains(">images</span>"), "the legend names the kinds")
        #expect(!map.contains(">video and audio</span>"), "and only those present")
        // The app's exclusion is hatched: an overlay rect inside the Stickers tile.
        let stickers = try #require(map.range(of: "<title>Library/Application Support/Stickers\n"))
        let after = map[stickers.upperBound...].prefix(400)
        #expect(after.contains("<rect class=\"tm-h\""), "the app's exclusion is striped")
    }

    @Test func anEmptyContainerSaysSo() {
        let html = HTMLReportWriter().render(Self.report(InventoryBuilder().build()))
        #expect(Self.map(html).contains("Nothing in the container occupies space on disk but its folders."))
        #expect(!Self.map(html).contains("<svg"))
    }

    /// A million files in one folder: the section stays within its budget of tiles and bytes.
    @Test func aMillionFilesInOneFolderGiveABoundedMap() {
        var builder = InventoryBuilder()
        for number in 0..<200_000 {
            builder.add("Library/Caches/flat/f\(number)", apparentBytes: Int64(number % 5000 + 100))
        }
        let map = Self.map(HTMLReportWriter().render(Self.report(builder.build())))
        let tiles = map.components(separatedBy: "<svg x=").count - 1
        #expect(tiles <= TreemapLayout.Budget().tiles)
        #expect(map.utf8.count < 300_000, "\(map.utf8.count) bytes")
        #expect(map.contains("smaller items\n"), "the rest of the folder is one tile")
    }
}
