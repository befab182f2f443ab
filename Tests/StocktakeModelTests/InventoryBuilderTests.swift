import StocktakeModel
import TestSupport
import Testing

/// The builder other suites reuse: parents, names, totals and inheritance as the scanner would produce them.
@Suite struct InventoryBuilderTests {
    @Test func buildsParentsNamesAndTotals() throws {
        let inventory = SyntheticContainer.inventory()
        let sqlite = try #require(inventory.index(ofPath: Array("Documents/Projects/Alpha/model.sqlite".utf8)))
        #expect(PathText.display(inventory.path(sqlite)) == "Documents/Projects/Alpha/model.sqlite")
        let nonUTF8 = try #require(inventory.index(ofPath: Array("Documents/".utf8) + SyntheticContainer.nonUTF8Name))
        #expect(Array(inventory.name(nonUTF8)) == SyntheticContainer.nonUTF8Name)
        let alpha = try #require(inventory.index(ofPath: Array("Documents/Projects/Alpha".utf8)))
        #expect(inventory.entries[Int(alpha)].isDirectory)
        // Alpha: itself, two names of one inode (bytes counted once) and the WAL; all rounded up to 4 KiB.
        // `files` counts the three non-directory entries beneath it.
        #expect(
            inventory.directoryTotals[alpha]
                == SizeTotal(
                    files: 3, apparentBytes: 4_096 + 5_200_000 + 812_345, allocatedBytes: 4_096 + 5_201_920 + 815_104))
        #expect(inventory.directoryTotals[inventory.root]?.allocatedBytes == inventory.totals.onDisk.allocatedBytes)
        let thumbnail = try #require(
            inventory.index(ofPath: Array("Library/Application Support/Thumbnails/thumb-00.png".utf8)))
        let thumbnails = try #require(inventory.index(ofPath: Array("Library/Application Support/Thumbnails".utf8)))
        #expect(inventory.entries[Int(thumbnail)].excludedBy == thumbnails)
        #expect(inventory.entries[Int(thumbnail)].location == .applicationSupport)
        #expect(inventory.entries[Int(thumbnail)].kind == .png)
        let cache = try #require(inventory.index(ofPath: Array("Library/Caches/Images/avatar-large.heic".utf8)))
        #expect(inventory.entries[Int(cache)].backup == .excludedBySystem)
        #expect(inventory.symlinkTargets.values.contains(Array("../tmp/x".utf8)))
    }

    /// Names that sort around a folder's (its name plus "/"): every entry is found at its own path, and a path that
    /// names nothing finds nothing.
    @Test func everyEntryIsFoundAtItsPath() {
        var builder = InventoryBuilder()
        for name in ["c", "c.txt", "c 1", "c-", "c0", "cc", "b", "d", "Chat with friends 1720.txt"] {
            builder.add("Documents/\(name)")
            builder.add("Library/\(name)/inner", apparentBytes: 1)
        }
        for number in 0..<300 { builder.add("Library/Caches/file-\((number * 7919) % 1000).dat") }
        builder.add(pathBytes: Array("Documents/".utf8) + SyntheticContainer.nonUTF8Name)
        let inventory = builder.build()
        inventory.forEachInPathOrder { index in #expect(inventory.index(ofPath: inventory.path(index)) == index) }
        for missing in ["Documents/c/inner", "Library/c.txt/x", "Library/ca", "Documents/e", "Library/Caches/file-1"] {
            #expect(inventory.index(ofPath: Array(missing.utf8)) == nil, "\(missing)")
        }
    }
}
