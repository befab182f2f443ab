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

    @Test func theMapMarksChangesRemovalsAndTrippedGates() throws {
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
        let a = try #require(tag("A"))
        #expect(a.contains("g-grew") && a.contains("gate"), "A grew and holds the gate's place: \(a)")
        let w = try #require(tag("A/w"))
        #expect(w.contains("g-new") && w.contains("i4") && w.contains("gate"), "the largest change, new: \(w)")
        let x = try #require(tag("A/x"))
        let c = try #require(tag("C"))
        #expect(x.contains("g-same") && c.contains("g-new"))
        // Removed items are drawn apart by their old size, the removed folder once with what it held.
        let removed = try #require(html.components(separatedBy: "id=\"gone-0\"").dropFirst().first)
        #expect(removed.contains("<title>B\n"), "the removed folder")
        #expect(removed.contains("<title>A/y\n"), "a file removed from a folder still there")
        #expect(!removed.contains("<title>B/z\n"), "not again inside its removed folder")
        #expect(
            html.components(separatedBy: "id=\"gone-0\"").first?.contains("<title>B\n") == false,
            "B has no area in the newer version")
    }

    @Test func theTreeIsBuiltOnlyForTheHTMLPage() {
        #expect(ReportDiff.compute(old: Self.old, new: Self.new, options: DiffOptions(growthMap: false)).growth == nil)
    }
}
