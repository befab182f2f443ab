import StocktakeContent
import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

/// AppleDouble sidecars left by a Mac transport carry backup flags; they are evidence, not app data.
@Suite struct AppleDoubleEvidenceTests {
    static let exclude = [
        (name: "com.apple.metadata:com_apple_backup_excludeItem", value: TemporaryTree.backupExclusionValue)
    ]

    func entry(_ inventory: Inventory, _ path: String) throws -> Entry {
        inventory.entries[Int(try #require(inventory.index(ofPath: Array(path.utf8)), "\(path)"))]
    }

    @Test func sidecarsFlagTheirTargetsAndFoldersPassItOn() throws {
        let tree = try TemporaryTree("sidecar")
        try tree.write("Library/Application Support/Stickers/pack1/a.png", string: "x")
        try tree.write(
            "Library/Application Support/._Stickers", bytes: AppleDoubleBuilder.sidecar(attributes: Self.exclude))
        try tree.write("Library/Application Support/db.sqlite", string: "x")
        try tree.write(
            "Library/Application Support/._db.sqlite",
            bytes: AppleDoubleBuilder.sidecar(attributes: [("com.apple.MobileBackup", [1])]))
        try tree.write("Documents/Report.pdf", string: "x")
        try tree.write(
            "Documents/._Report.pdf",
            bytes: AppleDoubleBuilder.sidecar(attributes: [("com.apple.lastuseddate#PS", [0, 1, 2])]))
        let inventory = try InventoryScanner.scan(root: tree.root)

        let stickers = try entry(inventory, "Library/Application Support/Stickers")
        #expect(stickers.backup == .excluded && stickers.evidence == .appleDouble)
        let png = try entry(inventory, "Library/Application Support/Stickers/pack1/a.png")
        #expect(png.backup == .excluded && png.evidence == .ancestor)
        let database = try entry(inventory, "Library/Application Support/db.sqlite")
        #expect(database.backup == .excluded && database.evidence == .appleDouble)
        // A sidecar with no flag still proves attributes travelled: the report is included, not unknown.
        #expect(try entry(inventory, "Documents/Report.pdf").backup == .included)
        #expect(inventory.evidence.appleDoubleSidecars == 3)
        #expect(inventory.evidence.flaggedByAppleDouble == 2)

        let sidecar = try entry(inventory, "Documents/._Report.pdf")
        #expect(sidecar.kind == .appleDouble)
        #expect(sidecar.flags.contains(.transportArtefact))
        #expect(inventory.totals.transportArtefacts.files == 3)
        #expect(inventory.totals.byLocation[.documents]?.files == 1)
    }

    @Test func sequesteredSidecarsUnderMACOSX() throws {
        let tree = try TemporaryTree("macosx")
        try tree.write("Library/Application Support/Downloads/v.mp4", string: "x")
        try tree.write(
            "__MACOSX/Library/Application Support/._Downloads",
            bytes: AppleDoubleBuilder.sidecar(attributes: Self.exclude))
        let inventory = try InventoryScanner.scan(root: tree.root)
        let video = try entry(inventory, "Library/Application Support/Downloads/v.mp4")
        #expect(video.backup == .excluded)
        #expect(video.evidence == .ancestor)
        #expect(try entry(inventory, "Library/Application Support/Downloads").evidence == .appleDouble)
        #expect(try entry(inventory, "__MACOSX").flags.contains(.transportArtefact))
        #expect(inventory.totals.byLocation[.other]?.files == 0)
    }

    @Test func anUnpairedSidecarIsReportedAndAGarbageOneIsJustAFile() throws {
        let tree = try TemporaryTree("unpaired")
        try tree.write("Documents/._gone.txt", bytes: AppleDoubleBuilder.sidecar(attributes: Self.exclude))
        try tree.write("Documents/._notes", string: "not an AppleDouble file")
        try tree.write("Documents/notes", string: "x")
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(inventory.issues.map(\.reason) == [.unpairedSidecar])
        #expect(PathText.display(inventory.issues[0].path) == "Documents/gone.txt")
        let garbage = try entry(inventory, "Documents/._notes")
        #expect(!garbage.flags.contains(.transportArtefact))
        #expect(try entry(inventory, "Documents/notes").backup == .included)
    }

    @Test func aSidecarLargerThanItsHeaderWindowStillCounts() throws {
        let tree = try TemporaryTree("bigsidecar")
        try tree.write("Documents/big.bin", string: "x")
        // A 70 KB value lies past the first 64 KiB the walker reads; only the names must lie within.
        let big = AppleDoubleBuilder.sidecar(
            attributes: Self.exclude + [("com.example.blob", [UInt8](repeating: 7, count: 70_000))])
        #expect(big.count > 65_536)
        try tree.write("Documents/._big.bin", bytes: big)
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(try entry(inventory, "Documents/big.bin").backup == .excluded)
        #expect(try entry(inventory, "Documents/._big.bin").flags.contains(.transportArtefact))
        #expect(inventory.issues.isEmpty)
    }

    @Test func theDotSidecarFlagsTheFolderItself() throws {
        let tree = try TemporaryTree("dotsidecar")
        try tree.write("Library/Application Support/Downloads/clip.mp4", string: "x")
        try tree.write(
            "Library/Application Support/Downloads/._.", bytes: AppleDoubleBuilder.sidecar(attributes: Self.exclude))
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(try entry(inventory, "Library/Application Support/Downloads").evidence == .appleDouble)
        #expect(try entry(inventory, "Library/Application Support/Downloads/clip.mp4").evidence == .ancestor)
        #expect(inventory.issues.isEmpty)
    }

    @Test func aBrokenSidecarIsReportedAndStaysTransport() throws {
        let tree = try TemporaryTree("broken")
        try tree.write("Documents/a.txt", string: "x")
        var broken = AppleDoubleBuilder.sidecar(attributes: Self.exclude)
        broken[24] = 0xFF  // an entry count whose table runs past the file
        broken[25] = 0xFF
        try tree.write("Documents/._a.txt", bytes: broken)
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(inventory.issues.map(\.reason) == [.malformedMetadata])
        #expect(try entry(inventory, "Documents/._a.txt").flags.contains(.transportArtefact))
        #expect(inventory.totals.byLocation[.documents]?.files == 1)
    }
}
