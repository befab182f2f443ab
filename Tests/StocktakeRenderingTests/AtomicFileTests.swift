import Foundation
import StocktakeRendering
import TestSupport
import Testing

/// Reports are replaced whole or not at all: a failed write leaves the old file and no temporary behind.
@Suite struct AtomicFileTests {
    struct ProducerFailed: Error {}

    static func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    static func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func aProducerThatThrowsHalfWayLeavesTheOldFileAndNoTemporary() throws {
        let tree = try TemporaryTree("atomic")
        let target = tree.path("report.json")
        let old = Array("old report\n".utf8)
        try tree.write("report.json", bytes: old)
        #expect(throws: ProducerFailed.self) {
            try AtomicFile.write(to: target) { write in
                try write(Array(repeating: UInt8(ascii: "n"), count: 100_000))
                try write(Array("half".utf8))
                throw ProducerFailed()
            }
        }
        #expect(Self.contents(target) == old)
        #expect(Self.listing(tree.root) == ["report.json"])
    }

    @Test func aSuccessfulWriteReplacesTheFile() throws {
        let tree = try TemporaryTree("atomic")
        let target = tree.path("report.json")
        try tree.write("report.json", string: "old report, longer than the new one\n")
        let new = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try AtomicFile.write(to: target) { write in
            try write(Array(new[..<1000]))
            try write(Array(new[1000...]))
        }
        #expect(Self.contents(target) == new)
        #expect(Self.listing(tree.root) == ["report.json"])
        try AtomicFile.write([1, 2, 3], to: tree.path("new.bin"))
        #expect(Self.contents(tree.path("new.bin")) == [1, 2, 3])
        #expect(Self.listing(tree.root) == ["new.bin", "report.json"])
        // Readable by others, like any report (mkstemp alone would leave 0600).
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int)
        #expect(mode & 0o044 == 0o044)
    }

    /// Files over a block go to the disk in aligned blocks (direct I/O where the file system takes it, as
    /// ext4 does; tmpfs may refuse and fall back), with background syncs past 32 MiB and a buffered tail: the
    /// bytes must come back exactly, whatever the chunk sizes, on the temporary folder and on /dev/shm.
    @Test(arguments: ["", "/dev/shm"]) func aFileOfManyBlocksComesBackByteForByte(parent: String) throws {
        if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) { return }
        let tree = try parent.isEmpty ? TemporaryTree("atomic-blocks") : TemporaryTree("atomic-blocks", in: parent)
        let target = tree.path("report.json")
        let size = (40 << 20) + 12_345
        var pattern = [UInt8](repeating: 0, count: size)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in pattern.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pattern[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        try AtomicFile.write(to: target) { write in
            var start = 0
            var step = 1
            while start < size {
                let end = min(size, start + step)
                try write(Array(pattern[start..<end]))
                start = end
                step = step * 7 % 5_000_000 + 1
            }
        }
        #expect(Self.contents(target) == pattern)
        #expect(Self.listing(tree.root) == ["report.json"])
    }

    @Test func aMissingFolderThrowsAnErrorNamingThePath() throws {
        let tree = try TemporaryTree("atomic")
        let target = tree.path("no such folder/report.json")
        let error = try #require(throws: OutputError.self) {
            try AtomicFile.write(Array("x".utf8), to: target)
        }
        #expect(error.path == target)
        #expect(error.description.contains(target))
        #expect(!error.reason.isEmpty)
        #expect(Self.listing(tree.root).isEmpty)
    }

    @Test func aParentThatIsAFileThrowsAndLeavesNothing() throws {
        let tree = try TemporaryTree("atomic")
        try tree.write("plain-file", string: "not a folder")
        let target = tree.path("plain-file/report.json")
        let error = try #require(throws: OutputError.self) {
            try AtomicFile.write(to: target) { write in try write(Array("x".utf8)) }
        }
        #expect(error.path == target)
        #expect(error.description.contains(target))
        #expect(Self.listing(tree.root) == ["plain-file"])
        #expect(Self.contents(tree.path("plain-file")) == Array("not a folder".utf8))
    }

    @Test func aTargetThatIsAFolderThrowsAndLeavesTheFolderAndNoTemporary() throws {
        let tree = try TemporaryTree("atomic")
        try tree.write("report.json/inside.txt", string: "keep")
        let target = tree.path("report.json")
        let error = try #require(throws: OutputError.self) {
            try AtomicFile.write(Array("x".utf8), to: target)
        }
        #expect(error.path == target)
        #expect(Self.listing(tree.root) == ["report.json"])
        #expect(Self.contents(tree.path("report.json/inside.txt")) == Array("keep".utf8))
    }

    /// Issue 10, F6 and issue 22, fault 9: what a killed write left goes, for this target only, however recent;
    /// a temporary a live writer holds (its lock) stays, however old.
    @Test func leftoversOfThisTargetGoUnlessAWriterHoldsThem() throws {
        let tree = try TemporaryTree("atomic")
        for name in [
            ".diff.json.tmp-a1B2c3", ".diff.json.tmp-NOW000", ".diff.json.tmp-LiVe00", ".diff.html.tmp-a1B2c3",
            "diff.json",
        ] {
            try tree.write(name, string: "x")
        }
        // Killed in the very second this run starts: the same modification time as now.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: tree.path(".diff.json.tmp-a1B2c3"))
        // A writer still at work, for an hour already: it holds the lock `write` takes.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: tree.path(".diff.json.tmp-LiVe00"))
        let live = open(tree.path(".diff.json.tmp-LiVe00"), O_RDONLY)
        try #require(live >= 0 && flock(live, LOCK_EX) == 0)
        defer { close(live) }
        try tree.symlink(".diff.json.tmp-LiNk00", to: "diff.json")
        #expect(
            AtomicFile.removeLeftovers(of: tree.path("diff.json")).sorted() == [
                ".diff.json.tmp-NOW000", ".diff.json.tmp-a1B2c3",
            ])
        #expect(
            Self.listing(tree.root) == [
                ".diff.html.tmp-a1B2c3", ".diff.json.tmp-LiNk00", ".diff.json.tmp-LiVe00", "diff.json",
            ])
    }

    /// The lock `write` takes is held while it writes: a cleaner running meanwhile leaves its temporary alone.
    @Test func aWriteInProgressIsNotALeftover() throws {
        let tree = try TemporaryTree("atomic-live")
        var removedDuringWrite: [String] = ["not run"]
        try AtomicFile.write(to: tree.path("report.json")) { write in
            try write(Array("{".utf8))
            removedDuringWrite = AtomicFile.removeLeftovers(of: tree.path("report.json"))
            try write(Array("}".utf8))
        }
        #expect(removedDuringWrite.isEmpty)
        #expect(Self.contents(tree.path("report.json")) == Array("{}".utf8))
    }
}
