import Foundation
import TestSupport
import Testing

/// Where the system's libarchive cannot be loaded (here: the environment names a file that does not exist), an
/// archive input is refused with exit 1, a message naming what to install and nothing written; a folder is audited
/// as ever. The binary never links libarchive, so this is what a machine without it sees.
@Suite struct ArchiveReaderMissingTests {
    static let unloadable = ["STOCKTAKE_LIBARCHIVE": "/nonexistent/libarchive-made-unloadable-by-a-test.so"]

    static func container(_ tree: TemporaryTree) throws {
        try tree.write("X/Documents/notes.txt", string: "hello\n")
        try tree.write("X/Library/Preferences/com.example.x.plist", bytes: Array("bplist00".utf8) + [0x08])
        try tree.write("X/tmp/upload.part", string: "partial")
    }

    @Test func anArchiveIsRefusedWithWhatToInstall() throws {
        let tree = try TemporaryTree("no-libarchive")
        try Self.container(tree)
        // Python's tarfile writes the archive: no tar command, whose options differ between platforms.
        let made = try StocktakeProcess.runCommand([
            "/usr/bin/env", "python3", "-c",
            "import sys, tarfile; t = tarfile.open(sys.argv[1], 'w'); t.add(sys.argv[2], 'X'); t.close()",
            tree.path("X.tar"), tree.path("X"),
        ])
        try #require(made.status == 0, "\(made.stderr)")

        let result = try StocktakeProcess.run(
            ["audit", tree.path("X.tar"), "--output", tree.path("out")], environment: Self.unloadable, timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("reading zip and tar exports needs the system's libarchive"))
        #expect(result.stderr.contains("/nonexistent/libarchive-made-unloadable-by-a-test.so"))
        #if os(Linux)
            #expect(result.stderr.contains("apt-get install libarchive13"))
        #endif
        #expect(result.stderr.contains("Folders, simulator containers and device backups do not need it"))
        #expect(
            !FileManager.default.fileExists(atPath: tree.path("out")), "an output folder was made for a refused input")
    }

    @Test func aFolderIsAuditedWithoutIt() throws {
        let tree = try TemporaryTree("no-libarchive")
        try Self.container(tree)
        let result = try StocktakeProcess.run(
            ["audit", tree.path("X"), "--output", tree.path("out"), "--quiet", "--fail-on", "never"],
            environment: Self.unloadable, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: tree.path("out/report.json")))
        #expect(FileManager.default.fileExists(atPath: tree.path("out/report.html")))
    }
}
