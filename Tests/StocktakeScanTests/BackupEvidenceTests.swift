import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

/// Backup state comes from the place, the entry's own flag, or its nearest flagged ancestor; "included"
/// only with evidence that the export kept extended attributes.
@Suite struct BackupEvidenceTests {
    func entry(_ inventory: Inventory, _ path: String) throws -> Entry {
        inventory.entries[Int(try #require(inventory.index(ofPath: Array(path.utf8)), "\(path)"))]
    }

    @Test func ownXattrExcludesAndProvesAttributesTravelled() throws {
        let tree = try TemporaryTree("xattr")
        try tree.write("Library/Application Support/Stickers/pack.png", string: "x")
        try tree.write("Library/Application Support/Chats/1/m.jpg", string: "x")
        try tree.write("Documents/Report.pdf", string: "x")
        try tree.excludeFromBackup("Library/Application Support/Stickers/pack.png")
        let inventory = try InventoryScanner.scan(root: tree.root)
        let flagged = try entry(inventory, "Library/Application Support/Stickers/pack.png")
        #expect(flagged.backup == .excluded)
        #expect(flagged.evidence == .xattr)
        // The export demonstrably carries attributes, so unflagged entries are included.
        #expect(inventory.evidence.carriesAttributes)
        #expect(inventory.evidence.flaggedByXattr == 1)
        #expect(try entry(inventory, "Documents/Report.pdf").backup == .included)
        #expect(try entry(inventory, "Documents/Report.pdf").evidence == .noFlag)
    }

    @Test func flaggedFolderExcludesEverythingBeneath() throws {
        let tree = try TemporaryTree("ancestor")
        try tree.write("Library/Application Support/Downloads/a/b/c.bin", string: "x")
        try tree.write("Library/Application Support/Keep/d.bin", string: "x")
        try tree.excludeFromBackup("Library/Application Support/Downloads")
        let inventory = try InventoryScanner.scan(root: tree.root)
        let deep = try entry(inventory, "Library/Application Support/Downloads/a/b/c.bin")
        #expect(deep.backup == .excluded)
        #expect(deep.evidence == .ancestor)
        #expect(PathText.display(inventory.path(deep.excludedBy)) == "Library/Application Support/Downloads")
        #expect(try entry(inventory, "Library/Application Support/Keep/d.bin").backup == .included)
        #expect(inventory.totals.backup[.excluded]?.files == 1)
    }

    @Test func legacyMobileBackupAttribute() throws {
        let tree = try TemporaryTree("legacy")
        try tree.write("Documents/old.db", string: "x")
        #if os(Linux)
            try tree.setAttribute("Documents/old.db", name: "user.com.apple.MobileBackup", value: [1])
        #else
            try tree.setAttribute("Documents/old.db", name: "com.apple.MobileBackup", value: [1])
        #endif
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(try entry(inventory, "Documents/old.db").evidence == .legacyXattr)
        #expect(try entry(inventory, "Documents/old.db").backup == .excluded)
        #expect(inventory.evidence.flaggedByLegacyXattr == 1)
    }

    @Test func withoutAnyEvidenceUnflaggedIsUnknownUnlessTheUserVouches() throws {
        let tree = try TemporaryTree("unknown")
        try tree.write("Documents/a.txt", string: "x")
        try tree.write("Library/Caches/b.bin", string: "x")
        let plain = try InventoryScanner.scan(root: tree.root)
        #expect(try entry(plain, "Documents/a.txt").backup == .unknown)
        #expect(try entry(plain, "Library/Caches/b.bin").backup == .excludedBySystem)
        #expect(!plain.evidence.carriesAttributes)
        let vouched = try InventoryScanner.scan(root: tree.root, options: ScanOptions(xattrsPreserved: true))
        #expect(try entry(vouched, "Documents/a.txt").backup == .included)
    }

    @Test func attributesTheHostAddsAreNotEvidence() throws {
        let tree = try TemporaryTree("local")
        try tree.write("Documents/a.txt", string: "x")
        // security.* attributes come from the Linux host (SELinux, capabilities), not from the device.
        try? tree.setAttribute("Documents/a.txt", name: "security.selinux", value: Array("x".utf8))
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(inventory.evidence.entriesWithAttributes == 0)
        #expect(try entry(inventory, "Documents/a.txt").backup == .unknown)
    }
}
