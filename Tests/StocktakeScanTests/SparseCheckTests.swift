import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sparse: fewer blocks than the size, unless macOS's transparent compression (`UF_COMPRESSED`) explains it.
@Suite struct SparseCheckTests {
    static let rows: [(size: Int64, blocks: Int64, flags: UInt32, sparse: Bool, why: String)] = [
        (10_000_000, 128, 0, true, "a hole: 64 KiB on disk of 10 MB"),
        (10_000_000, 128, 0x20, false, "UF_COMPRESSED: decmpfs keeps it small, no hole"),
        (10_000_000, 128, 0x20 | 0x8000, false, "compressed and hidden"),
        (10_000_000, 128, 0x8000, true, "UF_HIDDEN alone says nothing about blocks"),
        (10_000_000, 128, 0x40, true, "UF_TRACKED alone says nothing about blocks"),
        (4096, 8, 0, false, "exactly its size"),
        (4097, 8, 0, true, "one byte more than its blocks"),
        (100, 8, 0, false, "more blocks than bytes (the last block part-used)"),
        (0, 0, 0, false, "empty"),
        (0, 0, 0x20, false, "empty and compressed"),
        (1, 0, 0, true, "no block for a byte (a hole, or data the file system keeps inline): flagged, as before"),
        (1, 0, 0x20, false, "a small compressed file keeps its data in the attribute: no block, no hole"),
    ]

    @Test("sparse by size, blocks and flags", arguments: rows)
    func decision(_ row: (size: Int64, blocks: Int64, flags: UInt32, sparse: Bool, why: String)) {
        #expect(SparseCheck.isSparse(size: row.size, blocks: row.blocks, flags: row.flags) == row.sparse, "\(row.why)")
    }

    @Test func theCompressionFlagIsDarwins() {
        #expect(SparseCheck.compressedFlag == 0x0000_0020)  // XNU bsd/sys/stat.h
        #if canImport(Darwin)
            #expect(SparseCheck.compressedFlag == UInt32(UF_COMPRESSED))
        #endif
    }

    /// Linux has no `st_flags`: the walk passes 0, and a file with a hole is still sparse.
    @Test func aFileWithAHoleIsStillSparse() throws {
        let tree = try TemporaryTree("sparse")
        try tree.mkdir("Documents")
        let fd = open(tree.path("Documents/disk.img"), O_CREAT | O_WRONLY, 0o644)
        try #require(fd >= 0)
        #expect(ftruncate(fd, 10_000_000) == 0)
        close(fd)
        let inventory = try InventoryScanner.scan(root: tree.root)
        let image = try #require(inventory.index(ofPath: Array("Documents/disk.img".utf8)))
        #expect(inventory.entries[Int(image)].flags.contains(.sparse))
    }
}
