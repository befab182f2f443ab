import Foundation
import TestSupport
import Testing

/// How the command-line tests find the built binary, checked on any system with the argument lists SwiftPM
/// gives a test process on macOS (through swiftpm-testing-helper) and on Linux (the test binary itself).
@Suite struct BinaryLookupTests {
    /// A build folder as SwiftPM lays it out, holding a fake `stocktake` (an executable file), and the test
    /// bundle: on macOS a bundle whose binary is `Contents/MacOS/NAME`, on Linux one file named `NAME.xctest`.
    struct WriteFailed: Error {
        let path: String
    }

    struct Layout {
        let tree: TemporaryTree
        let build: String

        init(_ triple: String, macBundle: Bool, binary: Bool = true) throws {
            tree = try TemporaryTree("lookup")
            build = tree.path(".build/\(triple)/debug")
            try tree.mkdir(".build/\(triple)/debug")
            if macBundle {
                try tree.write(
                    ".build/\(triple)/debug/StocktakePackageTests.xctest/Contents/MacOS/StocktakePackageTests",
                    string: "")
            } else {
                try tree.write(".build/\(triple)/debug/StocktakePackageTests.xctest", string: "")
            }
            if binary { try Self.fakeBinary(build + "/stocktake") }
        }

        static func fakeBinary(_ path: String) throws {
            guard
                FileManager.default.createFile(
                    atPath: path, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
            else {
                throw WriteFailed(path: path)
            }
        }

        var macTestBinary: String { build + "/StocktakePackageTests.xctest/Contents/MacOS/StocktakePackageTests" }
        var linuxTestBinary: String { build + "/StocktakePackageTests.xctest" }
    }

    static let helper =
        "/Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/libexec/swift/pm/swiftpm-testing-helper"

    /// What SwiftPM's TestRunner passes the helper on macOS (`--test-bundle-path PATH`, any `swift test`
    /// arguments, PATH again, `--testing-library swift-testing`).
    static func helperArguments(_ testBinary: String, extra: [String] = []) -> [String] {
        [helper, "--test-bundle-path", testBinary] + extra + [testBinary, "--testing-library", "swift-testing"]
    }

    static func locate(_ arguments: [String], _ environment: [String: String] = [:], in folder: String = "/") -> Result<
        String, BinaryLookup.NotFound
    > {
        BinaryLookup.locate(
            arguments: arguments, environment: environment, currentDirectory: folder,
            isExecutableFile: BinaryLookup.isExecutableRegularFile)
    }

    @Test("macOS: the folder of the bundle named by --test-bundle-path, not the helper's")
    func helperStyleArguments() throws {
        let layout = try Layout("arm64-apple-macosx", macBundle: true)
        #expect(try Self.locate(Self.helperArguments(layout.macTestBinary)).get() == layout.build + "/stocktake")
        #expect(
            try Self.locate(Self.helperArguments(layout.macTestBinary, extra: ["--filter", "Audit"])).get() == layout
                .build + "/stocktake")
        // A relative bundle path is taken from the current folder.
        let relative =
            ".build/arm64-apple-macosx/debug/StocktakePackageTests.xctest/Contents/MacOS/StocktakePackageTests"
        #expect(
            try Self.locate(Self.helperArguments(relative), in: layout.tree.root).get() == layout.build + "/stocktake")
    }

    @Test("Linux: beside the test binary, arguments[0]")
    func linuxStyleArguments() throws {
        let layout = try Layout("x86_64-unknown-linux-gnu", macBundle: false)
        #expect(
            try Self.locate([layout.linuxTestBinary, "--testing-library", "swift-testing"]).get() == layout.build
                + "/stocktake")
        let relative = ".build/x86_64-unknown-linux-gnu/debug/StocktakePackageTests.xctest"
        #expect(
            try Self.locate([relative, "--testing-library", "swift-testing"], in: layout.tree.root).get() == layout
                .build + "/stocktake")
    }

    @Test("STOCKTAKE_BINARY comes first, and is the only candidate when set")
    func explicitBinary() throws {
        let layout = try Layout("arm64-apple-macosx", macBundle: true)
        let elsewhere = try TemporaryTree("lookup-explicit")
        try Layout.fakeBinary(elsewhere.path("stocktake"))
        let arguments = Self.helperArguments(layout.macTestBinary)
        #expect(
            try Self.locate(arguments, ["STOCKTAKE_BINARY": elsewhere.path("stocktake")]).get()
                == elsewhere.path("stocktake"))
        // Wrong values are named, not passed over for the bundle's binary.
        let relative = Self.locate(arguments, ["STOCKTAKE_BINARY": "stocktake"])
        #expect(
            Self.failure(relative)?.contains("STOCKTAKE_BINARY=stocktake is not an absolute path") == true,
            "\(relative)")
        let missing = Self.locate(arguments, ["STOCKTAKE_BINARY": elsewhere.path("nothing")])
        #expect(Self.failure(missing)?.contains("is not an executable file") == true, "\(missing)")
        try elsewhere.write("plain", string: "not executable")
        #expect(Self.failure(Self.locate(arguments, ["STOCKTAKE_BINARY": elsewhere.path("plain")])) != nil)
        // Empty counts as unset.
        #expect(try Self.locate(arguments, ["STOCKTAKE_BINARY": ""]).get() == layout.build + "/stocktake")
    }

    @Test("nothing found: a failure naming every place tried, never a stocktake from PATH")
    func nothingFound() throws {
        let layout = try Layout("arm64-apple-macosx", macBundle: true, binary: false)
        // A folder is not a binary, even an executable one.
        try layout.tree.mkdir(".build/arm64-apple-macosx/debug/stocktake")
        let result = Self.locate(Self.helperArguments(layout.macTestBinary), ["PATH": "/usr/bin:/bin"])
        let message = try #require(Self.failure(result), "\(result)")
        #expect(message.contains("STOCKTAKE_BINARY is not set"))
        #expect(message.contains(layout.build + "/stocktake"), "the bundle's folder: \(message)")
        #expect(message.contains("/usr/libexec/swift/pm/stocktake"), "the helper's folder: \(message)")
        #expect(message.contains("swift build --show-bin-path"))
        // No folder to start from at all.
        let bare = try #require(Self.failure(Self.locate(["StocktakePackageTests"])))
        #expect(bare.contains("no --test-bundle-path") && bare.contains("names no folder"), "\(bare)")
    }

    @Test("the binary these tests run is an executable file")
    func theBinaryOfThisRun() throws {
        let binary = try StocktakeProcess.binary
        #expect(binary.hasPrefix("/"))
        #expect(BinaryLookup.isExecutableRegularFile(binary))
    }

    static func failure(_ result: Result<String, BinaryLookup.NotFound>) -> String? {
        if case .failure(let error) = result { return error.description }
        return nil
    }
}

/// Temporary folders are given by their real path, as the tool prints paths (on macOS the temporary folder is
/// under /var/folders, and /var is a link to /private/var).
@Suite struct TemporaryFolderTests {
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    @Test func aFolderUnderALinkedParentIsReturnedResolved() throws {
        let base = try TemporaryTree("linked-parent")
        try base.mkdir("real/deeper")
        try base.symlink("link", to: "real/deeper")
        let tree = try TemporaryTree("inside", in: base.path("link"))
        #expect(tree.root.hasPrefix(base.root + "/real/deeper/stocktake-inside-"), "\(tree.root)")
        #expect(Self.realPath(tree.root) == tree.root)
        let folder = try TemporaryTree.makeFolder("plain", in: base.path("link") + "/")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(folder.hasPrefix(base.root + "/real/deeper/stocktake-plain-"), "\(folder)")
    }

    @Test func theDefaultFolderIsResolvedToo() throws {
        let tree = try TemporaryTree()
        #expect(Self.realPath(tree.root) == tree.root)
        #expect(Self.realPath(try ExternalTools.temporaryFile("x.json", [1])) != nil)
    }

    @Test func theTreeRemovesItself() throws {
        var tree: TemporaryTree? = try TemporaryTree("gone")
        let root = try #require(tree?.root)
        try tree?.write("a/b.txt", string: "x")
        tree = nil
        #expect(!FileManager.default.fileExists(atPath: root))
    }
}

/// File times set from Swift (utimensat), as GNU `touch -h -d @SECONDS` would.
@Suite struct FileTimesTests {
    @Test func everyEntryIsDatedAndLinksThemselves() throws {
        let tree = try TemporaryTree("times")
        try tree.write("a/b/c.txt", string: "x")
        try tree.write("outside.txt", string: "y")
        try tree.symlink("a/link", to: "../outside.txt")
        try FileTimes.setRecursively(tree.path("a"), to: 1_600_000_000)
        var info = stat()
        for path in ["a", "a/b", "a/b/c.txt", "a/link"] {
            #expect(lstat(tree.path(path), &info) == 0)
            #expect(Self.seconds(info) == 1_600_000_000, "\(path)")
        }
        #expect(
            stat(tree.path("outside.txt"), &info) == 0 && Self.seconds(info) != 1_600_000_000,
            "a link's target is not dated")
        try FileTimes.set(tree.path("a/b/c.txt"), to: 1_700_000_000)
        #expect(stat(tree.path("a/b/c.txt"), &info) == 0 && Self.seconds(info) == 1_700_000_000)
        #expect(throws: FileTimes.Failure.self) { try FileTimes.set(tree.path("missing"), to: 0) }
    }

    static func seconds(_ info: stat) -> Int {
        #if os(Linux)
            Int(info.st_mtim.tv_sec)
        #else
            Int(info.st_mtimespec.tv_sec)
        #endif
    }
}
