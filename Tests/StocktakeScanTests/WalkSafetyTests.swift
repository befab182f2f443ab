import Foundation
import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

/// Hostile trees: the walk never follows links, never opens FIFOs, keeps odd names exactly, never writes.
@Suite struct WalkSafetyTests {
    @Test func symlinksAreRecordedNotFollowed() throws {
        let tree = try TemporaryTree("links")
        try tree.write("Documents/real.txt", string: "x")
        try tree.symlink("Documents/inside", to: "real.txt")
        try tree.symlink("Documents/outside", to: "/etc")
        try tree.symlink("Documents/climb", to: "../../..")
        try tree.symlink("Documents/loop", to: "loop")
        try tree.symlink("Library/cycle", to: "../Library")
        let inventory = try InventoryScanner.scan(root: tree.root)
        func entry(_ path: String) throws -> Entry {
            inventory.entries[Int(try #require(inventory.index(ofPath: Array(path.utf8))))]
        }
        for path in ["Documents/inside", "Documents/outside", "Documents/climb", "Documents/loop", "Library/cycle"] {
            #expect(try entry(path).type == .symlink, "\(path)")
        }
        #expect(try !entry("Documents/inside").flags.contains(.escapesContainer))
        #expect(try entry("Documents/outside").flags.contains(.escapesContainer))
        #expect(try entry("Documents/climb").flags.contains(.escapesContainer))
        #expect(try !entry("Library/cycle").flags.contains(.escapesContainer))
        // Nothing from /etc or from the cycle was walked.
        #expect(inventory.entries.count == 9)
    }

    @Test func fifosSocketsAndDevicesAreNeverOpened() throws {
        let tree = try TemporaryTree("fifo")
        // Names that would make the walk sniff content if these were files.
        try tree.mkfifo("Documents/pipe")
        try tree.mkfifo("Library/Application Support/default.realm.note")
        try tree.mkfifo("Documents/._pipe")
        let inventory = try InventoryScanner.scan(root: tree.root)
        let pipe = try #require(inventory.index(ofPath: Array("Documents/pipe".utf8)))
        #expect(inventory.entries[Int(pipe)].type == .fifo)
        #expect(inventory.issues.isEmpty)
    }

    @Test func hostileNamesAreKeptExactly() throws {
        let tree = try TemporaryTree("names")
        let names: [[UInt8]] = [
            Array("line\nbreak.txt".utf8), Array("quote\"and'apostrophe".utf8),
            Array("<img src=x onerror=alert(1)>".utf8),
            Array("a&b;c".utf8), [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x2E, 0x62, 0x69, 0x6E], Array("日本語 ファイル.txt".utf8),
        ]
        try tree.mkdir("Documents")
        var made: Set<[UInt8]> = []
        for name in names {
            let path = Array((tree.root + "/Documents/").utf8) + name + [0]
            let fd = path.withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
            }
            // APFS (macOS) takes only UTF-8 names and refuses others with EILSEQ; ext4 takes any bytes.
            if fd < 0 && errno == EILSEQ && String(bytes: name, encoding: .utf8) == nil { continue }
            #expect(fd >= 0, "\(name)")
            made.insert(name)
            close(fd)
        }
        #if os(Linux)
            #expect(made.count == names.count, "Linux file systems take any bytes but / and NUL")
        #endif
        let inventory = try InventoryScanner.scan(root: tree.root)
        let documents = try #require(inventory.index(ofPath: Array("Documents".utf8)))
        let found = inventory.children(documents).map { Array(inventory.name($0)) }
        #expect(Set(found) == made)
    }

    @Test func hundredLevelsDeep() throws {
        let tree = try TemporaryTree("deep")
        let path = "Documents/" + (1...100).map { "level\($0)" }.joined(separator: "/")
        try tree.write(path + "/bottom.txt", string: "x")
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(inventory.index(ofPath: Array((path + "/bottom.txt").utf8)) != nil)
        #expect(inventory.issues.isEmpty)
        // Past the limit, folders are recorded, not listed, and the report says so.
        let shallow = try InventoryScanner.scan(root: tree.root, options: ScanOptions(maxDepth: 10))
        #expect(shallow.issues.count == 1)
        #expect(shallow.issues.first?.reason == .tooDeep)
    }

    @Test func theAuditedTreeIsNeverWritten() throws {
        let tree = try SizeTests.makeTree()
        try tree.mkfifo("tmp/fifo")
        try tree.excludeFromBackup("Documents/notes.txt")
        let before = TreeSnapshot(tree.root)
        _ = try InventoryScanner.scan(root: tree.root)
        #expect(TreeSnapshot(tree.root) == before)
    }

    @Test func theWalkIsDeterministicAcrossThreadCounts() throws {
        let tree = try SizeTests.makeTree()
        for i in 0..<40 {
            try tree.write("Documents/many/\(i % 7)/file\(i).txt", string: String(repeating: "x", count: i * 100))
        }
        let one = try InventoryScanner.scan(root: tree.root, options: ScanOptions(threads: 1))
        let eight = try InventoryScanner.scan(root: tree.root, options: ScanOptions(threads: 8))
        var a: [[UInt8]] = []
        var b: [[UInt8]] = []
        one.forEachInPathOrder { a.append(one.path($0)) }
        eight.forEachInPathOrder { b.append(eight.path($0)) }
        #expect(a == b)
        #expect(one.totals == eight.totals)
    }

    @Test func pathsLongerThanPathMaxAreWalkedAndCounted() throws {
        let tree = try TemporaryTree("long")
        let component = String(repeating: "d", count: 200)
        let deep = "Documents/" + Array(repeating: component, count: 25).joined(separator: "/")
        // FileManager cannot create it in one go past PATH_MAX: build it step by step.
        var fd = open(tree.root, O_RDONLY | O_DIRECTORY)
        for step in deep.split(separator: "/") {
            #expect(mkdirat(fd, String(step), 0o755) == 0)
            let next = openat(fd, String(step), O_RDONLY | O_DIRECTORY)
            close(fd)
            fd = next
        }
        let file = openat(fd, "bottom.txt", O_CREAT | O_WRONLY, 0o644)
        #expect(write(file, "deep", 4) == 4)
        close(file)
        close(fd)
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(inventory.issues.isEmpty)
        #expect(inventory.index(ofPath: Array((deep + "/bottom.txt").utf8)) != nil)
        #expect(inventory.totals.onDisk.allocatedBytes == (try DiskUsage.bytes(tree.root)))
    }

    @Test func filesAreVisitedInByteOrderOfTheirPaths() throws {
        let tree = try TemporaryTree("order")
        for path in [
            "Documents/a/x", "Documents/a.b/y", "Documents/a-c", "Documents/a", "Documents/B", "Documents/a b/z",
        ] where path != "Documents/a" {
            try tree.write(path, string: "x")
        }
        #expect(link(tree.path("Documents/a/x"), tree.path("Documents/a.b/z")) == 0)
        let inventory = try InventoryScanner.scan(root: tree.root)
        // Files come in byte order of their paths; a folder sorts as its path with a trailing "/".
        var files: [[UInt8]] = []
        var keys: [[UInt8]] = []
        inventory.forEachInPathOrder { index, path in
            let isDirectory = inventory.entries[Int(index)].isDirectory
            keys.append(isDirectory && !path.isEmpty ? path + [UInt8(ascii: "/")] : path)
            if !isDirectory { files.append(path) }
        }
        #expect(files == files.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
        // The name that comes first carries a hard link's bytes.
        let first = try #require(inventory.index(ofPath: Array("Documents/a.b/z".utf8)))
        #expect(!inventory.entries[Int(first)].flags.contains(.hardLinkDuplicate))
    }
}
