import StocktakeModel
import StocktakeReport
import Testing

@testable import StocktakeDiff

/// A folder whose files did not change reads "unchanged" on the diff's map, as the locations table (files only)
/// says "0 bytes" for it, even when the blocks of the folders inside it changed.
@Suite struct DiffMapFolderBlocksTests {
    // tmp loses an empty subfolder (one 4 KiB block); its one file stays. Documents gains a file.
    static let old = DiffSnapshots.make(
        [SnapshotFile(path: "tmp/x", bytes: 4096, location: .tmp), SnapshotFile(path: "Documents/a", bytes: 4096)],
        directories: [("", 28_672), ("Documents", 8192), ("tmp", 12_288), ("tmp/empty", 4096)])
    static let new = DiffSnapshots.make(
        [
            SnapshotFile(path: "tmp/x", bytes: 4096, location: .tmp), SnapshotFile(path: "Documents/a", bytes: 4096),
            SnapshotFile(path: "Documents/b", bytes: 8192),
        ],
        directories: [("", 32_768), ("Documents", 16_384), ("tmp", 8192)])

    @Test("bytes changed leave the folders' own blocks out")
    func fileDeltas() throws {
        let tree = GrowthTree(old: Self.old, new: Self.new)
        let changes = ChangeTree(tree)
        let node = { (name: String) in
            try #require(tree.children(tree.root).first { String(decoding: tree.name($0), as: UTF8.self) == name })
        }
        let tmp = Int(try node("tmp"))
        #expect(changes.gained[tmp] == 0 && changes.lost[tmp] == 0)
        #expect(changes.gained[Int(try node("Documents"))] == 8192)
        #expect(tree.newBytes[Int(try node("tmp"))] - tree.oldBytes[Int(try node("tmp"))] == -4096)
    }

    @Test("the map leaves out a folder of unchanged files, and labels the change")
    func mapMatchesTheTable() {
        let html = HTMLDiffTreemap(tree: GrowthTree(old: Self.old, new: Self.new), gates: []).render().markup
        #expect(!html.contains("<title>Shrank or removed"), "no file lost bytes, so nothing shrank: not tmp either")
        #expect(html.contains("<title>Grew or new/Documents/b\n+8.2 KB · "), "the tile's figure is its change")
        #expect(html.contains(">+8.2 KB</text>") || html.contains(">+8.2 KB</tspan>"))
    }
}
