import Foundation
import StocktakeFiles
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `readdir` names read in place through `DirectoryEntryName`, never by copying the whole `d_name` array (1,024
/// bytes on Darwin, more than the record holds).
@Suite struct DirectoryEntryNameTests {
    /// Every name in `folder` as `readdir` gives it, through the helper; `.` and `..` apart.
    private static func listed(_ folder: String) throws -> (names: Set<[UInt8]>, dots: Int) {
        let directory = try #require(opendir(folder))
        defer { closedir(directory) }
        var names: Set<[UInt8]> = []
        var dots = 0
        while let entry = readdir(directory) {
            let (name, length) = DirectoryEntryName.name(of: entry)
            #expect(name[length] == 0, "NUL-terminated in place")
            if DirectoryEntryName.isDotOrDotDot(name, length: length) {
                dots += 1
            } else {
                names.insert(DirectoryEntryName.bytes(of: entry))
            }
        }
        return (names, dots)
    }

    @Test func namesUpToTheLongestAreReadWhole() throws {
        let tree = try TemporaryTree("dirent")
        let longest = [UInt8](repeating: UInt8(ascii: "n"), count: 255)  // NAME_MAX on Linux and Darwin
        var names: [[UInt8]] = [
            longest, Array(longest.prefix(254)) + [UInt8(ascii: "x")], Array("a".utf8), Array("..a".utf8),
            Array(".hidden".utf8),
            Array("日本語 ファイル.txt".utf8), Array(String(repeating: "é", count: 127).utf8),  // 254 bytes of UTF-8
        ]
        #if os(Linux)
            names.append([0x62, 0x61, 0x64, 0xFF, 0xFE])  // not UTF-8: ext4 takes any byte but / and NUL; APFS refuses
        #endif
        for name in names {
            let path = Array((tree.root + "/").utf8) + name + [0]
            let fd = path.withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
            }
            try #require(fd >= 0, "create \(name.count)-byte name: errno \(errno)")
            close(fd)
        }
        let (found, dots) = try Self.listed(tree.root)
        #expect(found == Set(names))
        #expect(found.contains { $0.count == 255 })
        #expect(dots == 2)
    }

    /// The name is read where the record holds it: the helper's pointer is the record's own `d_name` field, not a
    /// copy of it (a copy of Darwin's 1,024-byte array would read past a short record).
    @Test func theNameIsReadInPlace() throws {
        let tree = try TemporaryTree("dirent-place")
        try tree.write("short", string: "x")
        let directory = try #require(opendir(tree.root))
        defer { closedir(directory) }
        let offset = try #require(MemoryLayout<dirent>.offset(of: \dirent.d_name))
        var seen = 0
        while let entry = readdir(directory) {
            let address = UnsafeRawPointer(DirectoryEntryName.name(of: entry).start)
            #expect(address == UnsafeRawPointer(entry) + offset)
            // The field's own address as Swift gives it for an inout access: the same place.
            #expect(address == withUnsafeMutablePointer(to: &entry.pointee.d_name) { UnsafeRawPointer($0) })
            seen += 1
        }
        #expect(seen == 3)  // ".", ".." and "short"
    }

    @Test func dotAndDotDotOnly() {
        for (text, expected) in [
            (".", true), ("..", true), ("...", false), (".a", false), ("a.", false), ("a", false), ("", false),
        ] {
            let isDot = text.withCString { DirectoryEntryName.isDotOrDotDot($0, length: strlen($0)) }
            #expect(isDot == expected, "\(text)")
        }
    }

    /// Every `readdir` caller reads names through the helper: `d_name` appears nowhere else in Sources.
    @Test func onlyTheHelperTouchesDName() throws {
        let sources = Repository.path("Sources")
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []
        let readers = try files.filter { $0.hasSuffix(".swift") }.sorted().filter { path in
            try String(contentsOfFile: sources + "/" + path, encoding: .utf8).contains("d_name")
        }
        #expect(readers == ["StocktakeFiles/DirectoryEntryName.swift"])
    }
}
