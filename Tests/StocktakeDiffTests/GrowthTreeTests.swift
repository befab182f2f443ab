import StocktakeModel
import StocktakeRendering
import StocktakeReport
import Testing

@testable import StocktakeDiff

/// The union of two reports' paths as one tree: each path once, with both sides' bytes, under its folder.
@Suite struct GrowthTreeTests {
    static let old = DiffSnapshots.make(
        [
            SnapshotFile(path: "A/x", bytes: 4096), SnapshotFile(path: "A/y", bytes: 8192),
            SnapshotFile(path: "B/z", bytes: 12_288),
        ],
        directories: [("", 40_960), ("A", 16_384), ("B", 16_384)])
    static let new = DiffSnapshots.make(
        [
            SnapshotFile(path: "A/w", bytes: 20_480), SnapshotFile(path: "A/x", bytes: 4096),
            SnapshotFile(path: "C/q", bytes: 4096),
            SnapshotFile(path: "D/orphan", bytes: 4096),
        ],
        directories: [("", 53_248), ("A", 28_672), ("C", 8192)])

    static func path(_ tree: GrowthTree, _ node: Int32) -> String {
        var parts: [String] = []
        var current = node
        while current > tree.root {
            parts.append(String(decoding: tree.name(current), as: UTF8.self))
            current = tree.parent(current)
        }
        return parts.reversed().joined(separator: "/")
    }

    @Test func everyPathOnceWithBothSides() throws {
        let tree = GrowthTree(old: Self.old, new: Self.new)
        var seen: [String: Int32] = [:]
        for node in 1..<Int32(tree.count) { seen[Self.path(tree, node)] = node }
        #expect(
            Set(seen.keys) == ["A", "B", "C", "A/w", "A/x", "A/y", "B/z", "C/q", "orphan"],
            "a file whose folder is missing hangs on the root")
        #expect(seen.count == tree.count - 1, "no path twice")
        let a = try #require(seen["A"])
        let b = try #require(seen["B"])
        let c = try #require(seen["C"])
        #expect((tree.oldBytes[Int(a)], tree.newBytes[Int(a)], tree.presence(a)) == (16_384, 28_672, .both))
        #expect((tree.oldBytes[Int(b)], tree.newBytes[Int(b)], tree.presence(b)) == (16_384, 0, .onlyOld))
        #expect((tree.oldBytes[Int(c)], tree.newBytes[Int(c)], tree.presence(c)) == (0, 8192, .onlyNew))
        let y = try #require(seen["A/y"])
        let w = try #require(seen["A/w"])
        #expect(tree.presence(y) == .onlyOld && tree.presence(w) == .onlyNew)
        #expect(tree.bytes(tree.root) == Self.new.totals.onDisk.allocatedBytes, "the area is the newer version's")
        #expect(tree.children(a).map { String(decoding: tree.name($0), as: UTF8.self) } == ["w", "x", "y"])
        for (path, node) in seen where path != "orphan" {
            #expect(tree.node(atPath: Array(path.utf8)) == node, "\(path)")
        }
        #expect(tree.node(atPath: Array("A/nothing".utf8)) == nil)
    }

    @Test func theMapDrawsGainsAndLossesAtOneScaleAndMarksTrippedGates() throws {
        let diff = ReportDiff.compute(old: Self.old, new: Self.new)
        let gate = DiffGateResult(
            gate: "--fail-on-growth applicationSupport:10%", tripped: true, message: "grew", places: [.path("A/w")])
        let html = HTMLDiffTreemap(tree: try #require(diff.growth), gates: [gate]).render().markup
        let tag = { (path: String) -> String? in
            guard let title = html.range(of: "<title>" + path + "\n"),
                let start = html.range(of: "<svg x=", options: .backwards, range: html.startIndex..<title.lowerBound)
            else { return nil }
            return String(
                html[
                    start
                        .lowerBound..<(html.range(of: ">", range: start.upperBound..<html.endIndex)?.upperBound
                        ?? html.endIndex)])
        }
        let a = try #require(tag("Grew or new/A"))
        #expect(a.contains("g-grew") && a.contains("gate"), "A grew and holds the gate's place: \(a)")
        let w = try #require(tag("Grew or new/A/w"))
        #expect(w.contains("g-new") && w.contains("gate"), "new, the gate's place: \(w)")
        #expect(try #require(tag("Shrank or removed/A/y")).contains("g-gone"), "A also lost a file")
        #expect(try #require(tag("Shrank or removed/B")).contains("g-gone"), "the removed folder")
        #expect(try #require(tag("Grew or new/C")).contains("g-new"))
        #expect(tag("Grew or new/A/x") == nil && tag("Shrank or removed/A/x") == nil, "x did not change: no area")
        #expect(html.contains("<title>Shrank or removed/B\n-12.3 KB · "), "a loss is labelled with its change")

        // One scale: the two sides' areas are as the bytes gained (28,672) to the bytes lost (20,480).
        let changes = ChangeTree(try #require(diff.growth))
        let sides = TreemapLayout(changes).views[0].tiles
        let grew = try #require(sides.first { $0.node == 2 })
        let shrank = try #require(sides.first { $0.node == 3 })
        #expect((grew.bytes, shrank.bytes) == (28_672, 20_480))
        #expect(abs(grew.rect.area / shrank.rect.area - 28_672.0 / 20_480) < 1e-9)
    }

    @Test func aChangeUnderATenthOfAPercentIsNeutral() throws {
        let old = DiffSnapshots.make(
            [SnapshotFile(path: "big", bytes: 100_000_000), SnapshotFile(path: "small", bytes: 8192)],
            directories: [("", 100_012_288)])
        let new = DiffSnapshots.make(
            [SnapshotFile(path: "big", bytes: 110_000_000), SnapshotFile(path: "small", bytes: 4096)],
            directories: [("", 110_008_192)])
        let html = HTMLDiffTreemap(tree: GrowthTree(old: old, new: new), gates: []).render().markup
        #expect(html.contains("<title>Shrank or removed/small\n-4.1 KB · "))
        let small = try #require(
            html.components(separatedBy: "<title>Shrank or removed/small").first?.components(separatedBy: "<svg x=")
                .last)
        #expect(small.contains("g-same") && !small.contains("g-shrank"), "4 KB of 110 MB is not a shrink: \(small)")
    }

    @Test func theTreeIsBuiltOnlyForTheHTMLPage() {
        #expect(ReportDiff.compute(old: Self.old, new: Self.new, options: DiffOptions(growthMap: false)).growth == nil)
    }
}
