import Foundation
import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

/// The duplicate finder on real trees: sets of identical files, compared with what the test expects and with
/// `jdupes` as an independent oracle. Without jdupes the oracle test is skipped, unless CI
/// (`OutsideTools.required`) makes a missing tool a failure.
@Suite struct DuplicateFinderTests {
    static let jdupesPath = ["/usr/bin/jdupes", "/usr/local/bin/jdupes", "/opt/homebrew/bin/jdupes"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Deterministic bytes (a linear congruential sequence) so big files differ from each other by seed.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// Several sets and every near miss: same size with other content, same prefix with another tail,
    /// empty files, hard links, a symlink to a copy, files over the 1 MiB read length.
    static func makeTree() throws -> TemporaryTree {
        let tree = try TemporaryTree("dups")
        let hello = Array("hello, duplicated world\n".utf8)
        try tree.write("Documents/a.txt", bytes: hello)
        try tree.write("Documents/sub/b.txt", bytes: hello)
        try tree.write("Library/Caches/c.txt", bytes: hello)
        try tree.write("Documents/other.txt", bytes: Array("HELLO, DUPLICATED WORLD\n".utf8))
        #expect(link(tree.path("Documents/a.txt"), tree.path("Documents/a-link.txt")) == 0)
        try tree.symlink("Documents/a-symlink.txt", to: "a.txt")

        let head = bytes(8000, seed: 1)
        try tree.write("Library/Application Support/tail1.bin", bytes: head + bytes(2000, seed: 2))
        try tree.write("Library/Application Support/tail2.bin", bytes: head + bytes(2000, seed: 3))
        try tree.write("tmp/tail3.bin", bytes: head + bytes(2000, seed: 2))

        try tree.write("Documents/empty1", bytes: [])
        try tree.write("Documents/empty2", bytes: [])

        let unique = bytes(5000, seed: 4)
        try tree.write("Library/unique.bin", bytes: unique)
        #expect(link(tree.path("Library/unique.bin"), tree.path("tmp/unique-link.bin")) == 0)

        let big = bytes(3 << 20, seed: 5)
        try tree.write("Documents/big1.mov", bytes: big)
        try tree.write("Library/Caches/big2.mov", bytes: big)
        try tree.write("tmp/big3.mov", bytes: Array(big.dropLast()) + [big[big.count - 1] &+ 1])
        return tree
    }

    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    /// Sets as sets of inodes: a hard-linked copy may be named by either of its names.
    static func inodeSets(_ sets: [[String]]) -> Set<Set<UInt64>> {
        Set(sets.map { Set($0.compactMap(inode)) })
    }

    static func found(_ tree: TemporaryTree, minimumBytes: Int64 = 1) throws -> (
        sets: [[String]], search: DuplicateSearch, inventory: Inventory
    ) {
        let inventory = try InventoryScanner.scan(root: tree.root)
        let search = try DuplicateFinder(rootPath: tree.root, minimumBytes: minimumBytes, threads: 3).find(
            in: inventory)
        let sets = search.sets.map { $0.members.map { tree.path(PathText.display(inventory.path($0))) } }
        return (sets, search, inventory)
    }

    @Test func findsEachSetOnceAndNothingElse() throws {
        let tree = try Self.makeTree()
        let (sets, search, _) = try Self.found(tree)
        let expected = [
            ["Documents/a.txt", "Documents/sub/b.txt", "Library/Caches/c.txt"],
            ["Library/Application Support/tail1.bin", "tmp/tail3.bin"],
            ["Documents/big1.mov", "Library/Caches/big2.mov"],
        ].map { $0.map(tree.path) }
        #expect(Self.inodeSets(sets) == Self.inodeSets(expected))
        #expect(sets.count == 3, "the hard link and the symlink are not extra copies")
        #expect(search.issues.isEmpty)
        #expect(search.sets.map(\.size).sorted() == [24, 10_000, 3 << 20])
        let big = try #require(search.sets.first { $0.size == 3 << 20 })
        #expect(big.digest.description.count == 64)
    }

    @Test func outputIsInPathOrder() throws {
        let tree = try Self.makeTree()
        let (sets, _, _) = try Self.found(tree)
        for set in sets { #expect(set == set.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }) }
        let firsts = sets.compactMap(\.first)
        #expect(firsts == firsts.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(try Self.found(tree).sets == sets)
    }

    @Test func minimumSizeLeavesSmallSetsOut() throws {
        let tree = try Self.makeTree()
        let (sets, _, _) = try Self.found(tree, minimumBytes: 4096)
        #expect(
            Self.inodeSets(sets)
                == Self.inodeSets(
                    [
                        ["Library/Application Support/tail1.bin", "tmp/tail3.bin"],
                        ["Documents/big1.mov", "Library/Caches/big2.mov"],
                    ].map { $0.map(tree.path) }))
    }

    /// What changed between the walk and the comparison is reported and left out, and a file swapped for a
    /// symlink is never followed.
    @Test func filesChangedAfterTheWalkAreLeftOutAndReported() throws {
        let tree = try Self.makeTree()
        let inventory = try InventoryScanner.scan(root: tree.root)
        try FileManager.default.removeItem(atPath: tree.path("Library/Caches/c.txt"))
        try FileManager.default.removeItem(atPath: tree.path("Library/Caches/big2.mov"))
        try tree.symlink("Library/Caches/big2.mov", to: "../../Documents/big1.mov")
        try FileManager.default.removeItem(atPath: tree.path("tmp/tail3.bin"))
        try tree.write("tmp/tail3.bin", bytes: Self.bytes(10_001, seed: 9))
        let search = try DuplicateFinder(rootPath: tree.root).find(in: inventory)
        let sets = search.sets.map { $0.members.map { PathText.display(inventory.path($0)) } }
        #expect(
            sets == [["Documents/a.txt", "Documents/sub/b.txt"]]
                || sets == [["Documents/a-link.txt", "Documents/sub/b.txt"]])
        let reported = Set(search.issues.map { PathText.display($0.path) })
        #expect(reported == ["Library/Caches/c.txt", "Library/Caches/big2.mov", "tmp/tail3.bin"])
        #expect(search.issues.allSatisfy { $0.detail.hasPrefix("cannot compare its content: ") })
    }

    @Test func aMissingRootIsAnError() throws {
        let inventory = InventoryBuilder().build()
        #expect(throws: ScanError.self) {
            try DuplicateFinder(rootPath: "/nonexistent/stocktake-root").find(in: inventory)
        }
    }

    @Test(
        .enabled(
            if: DuplicateFinderTests.jdupesPath != nil || OutsideTools.required,
            "jdupes not found (apt-get install jdupes); \(OutsideTools.requirementHint)"))
    func agreesWithJdupes() throws {
        let jdupes = try #require(Self.jdupesPath, "jdupes is not installed")
        let tree = try Self.makeTree()
        let (sets, _, _) = try Self.found(tree)
        // jdupes' defaults match the finder's: hard links are not duplicates (no -H), empty files are not
        // (no -z), symlinks are not followed (no -s).
        let result = try StocktakeProcess.runCommand([jdupes, "-r", "-q", tree.root])
        #expect(result.status == 0, "\(result.stderr)")
        let oracle = result.stdout.components(separatedBy: "\n\n").map { block in
            block.split(separator: "\n").map(String.init)
        }.filter { !$0.isEmpty }
        #expect(oracle.count == 3, "\(result.stdout)")
        #expect(Self.inodeSets(sets) == Self.inodeSets(oracle))
    }
}
