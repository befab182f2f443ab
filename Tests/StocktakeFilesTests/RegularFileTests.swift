import Foundation
import StocktakeFiles
import TestSupport
import Testing

/// The one way Stocktake opens a file: regular files only, never blocking, never following a link
/// inside a container, bounded.
@Suite struct RegularFileTests {
    private func read(_ path: String, _ options: RegularFile.Options) throws(FileRefusal) -> [UInt8] {
        var options = options
        return try RegularFile.open(path, options: &options).readAll()
    }

    private func refusal(_ path: String, _ options: RegularFile.Options) -> FileRefusal? {
        do {
            _ = try read(path, options)
            return nil
        } catch {
            return error
        }
    }

    @Test func aRegularFileReadsWhole() throws {
        let tree = try TemporaryTree("files")
        try tree.write("a.txt", string: "hello")
        #expect(try read(tree.path("a.txt"), .insideContainer(maxBytes: 5)) == Array("hello".utf8))
        #expect(try read(tree.path("a.txt"), .named(maxBytes: 100)) == Array("hello".utf8))
        try tree.write("empty", bytes: [])
        #expect(try read(tree.path("empty"), .named(maxBytes: 100)) == [])
    }

    /// Opening a FIFO for reading blocks until a writer comes: it is refused at once instead.
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let tree = try TemporaryTree("files")
        try tree.mkfifo("pipe")
        #expect(refusal(tree.path("pipe"), .named(maxBytes: 100)) == .fifo)
        #expect(refusal(tree.path("pipe"), .insideContainer(maxBytes: 100)) == .fifo)
        // The walk skips the check before opening: O_NONBLOCK and fstat still refuse it.
        let skipping = RegularFile.Options(followsLinks: false, maxBytes: nil, checksTypeBeforeOpening: false)
        #expect(refusal(tree.path("pipe"), skipping) == .fifo)
        #expect(
            refusal(tree.path("pipe"), .named(maxBytes: 100))?.description
                == "it is a FIFO (named pipe), not a regular file")
    }

    /// `/dev/zero` never ends: a link to it (a user's file may be a link) is refused as a device.
    @Test func aDeviceIsRefusedEvenThroughALink() throws {
        let tree = try TemporaryTree("files")
        try tree.symlink("zero", to: "/dev/zero")
        #expect(refusal(tree.path("zero"), .named(maxBytes: 100)) == .device)
        #expect(refusal("/dev/null", .named(maxBytes: 100)) == .device)
        let skipping = RegularFile.Options(followsLinks: true, maxBytes: nil, checksTypeBeforeOpening: false)
        #expect(refusal(tree.path("zero"), skipping) == .device)
    }

    @Test func linksAreFollowedOnlyOutsideAContainer() throws {
        let tree = try TemporaryTree("files")
        try tree.write("target.txt", string: "data")
        try tree.symlink("link", to: "target.txt")
        #expect(refusal(tree.path("link"), .insideContainer(maxBytes: 100)) == .symbolicLink)
        let skipping = RegularFile.Options(followsLinks: false, maxBytes: nil, checksTypeBeforeOpening: false)
        #expect(refusal(tree.path("link"), skipping) == .symbolicLink)
        #expect(try read(tree.path("link"), .named(maxBytes: 100)) == Array("data".utf8))
    }

    @Test func foldersMissingFilesAndLargeFilesAreRefusedWithReasons() throws {
        let tree = try TemporaryTree("files")
        try tree.mkdir("folder")
        try tree.write("big", bytes: [UInt8](repeating: 7, count: 101))
        #expect(refusal(tree.path("folder"), .named(maxBytes: 100)) == .directory)
        #expect(refusal(tree.path("big"), .named(maxBytes: 100)) == .tooLarge(bytes: 101, limit: 100))
        #expect(
            refusal(tree.path("big"), .named(maxBytes: 100))?.description
                == "it is 101 bytes, more than the 100-byte limit")
        let missing = refusal(tree.path("missing"), .named(maxBytes: 100))
        #expect(missing == .system(ENOENT))
        #expect(missing?.description == SystemError.text(ENOENT))
    }

    @Test func aNameOpensInItsFolder() throws {
        let tree = try TemporaryTree("files")
        try tree.write("a.txt", string: "abc")
        try tree.mkfifo("pipe")
        let folder = open(tree.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(folder) }
        var options = RegularFile.Options.insideContainer(maxBytes: nil)
        let file = try RegularFile.open("a.txt", in: folder, options: &options)
        #expect(file.size == 3)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 2, alignment: 1)
        defer { buffer.deallocate() }
        #expect(try file.readPrefix(into: buffer) == 2)
        #expect(Array(buffer) == Array("ab".utf8))
        #expect(throws: FileRefusal.fifo) { try RegularFile.open("pipe", in: folder, options: &options) }
    }

    @Test func errnoTextIsTheSystems() {
        #expect(SystemError.text(ENOENT) == String(cString: strerror(ENOENT)))
        #expect(!SystemError.text(EACCES).isEmpty)
    }
}

/// Where a path leads, for "is this inside the audited container?" (issue 10, F4).
@Suite struct ResolvedPathTests {
    @Test func linksAreResolvedAndMissingPartsAppended() throws {
        let tree = try TemporaryTree("resolved")
        try tree.mkdir("C/Documents")
        try tree.symlink("L", to: tree.path("C/Documents"))
        let real = ResolvedPath.of(tree.root)
        #expect(ResolvedPath.of(tree.path("L/out/a")) == real + "/C/Documents/out/a")
        #expect(ResolvedPath.of(tree.path("L/out/../b/./c")) == real + "/C/Documents/b/c")
        #expect(ResolvedPath.isInside(tree.path("L/out"), tree.path("C")))
        #expect(!ResolvedPath.isInside(tree.path("out"), tree.path("C")))
        #expect(ResolvedPath.isInside(tree.path("C"), tree.path("C")))
    }

    @Test func aRelativePathStartsAtTheCurrentFolder() {
        #expect(ResolvedPath.of("no-such-folder/x") == ResolvedPath.of(".") + "/no-such-folder/x")
    }
}
