import CStocktakeSystem
import Foundation
import StocktakeModel
import StocktakeScan
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func flag(_ name: String) -> ExclusionFlag {
    withName(name) { BackupAttributes.flag(forAttributeName: $0) }
}

private func transported(_ name: String) -> Bool {
    withName(name) { BackupAttributes.isTransported(attributeName: $0) }
}

@Suite("BackupAttributes: names")
struct BackupAttributeNameTests {
    static let flagRows: [(String, ExclusionFlag)] = [
        ("com.apple.metadata:com_apple_backup_excludeItem", .xattr),
        ("user.com.apple.metadata:com_apple_backup_excludeItem", .xattr),
        ("trusted.com.apple.metadata:com_apple_backup_excludeItem", .xattr),
        ("osx.com.apple.metadata:com_apple_backup_excludeItem", .xattr),
        ("com.apple.MobileBackup", .legacyXattr),
        ("user.com.apple.MobileBackup", .legacyXattr),
        ("trusted.com.apple.MobileBackup", .legacyXattr),
        ("osx.com.apple.MobileBackup", .legacyXattr),
        // Near misses.
        ("security.com.apple.MobileBackup", .none),
        ("system.com.apple.metadata:com_apple_backup_excludeItem", .none),
        ("user.user.com.apple.MobileBackup", .none),
        ("com.apple.mobilebackup", .none),
        ("com.apple.MobileBackup2", .none),
        ("xcom.apple.MobileBackup", .none),
        ("com.apple.metadata:com_apple_backup_excludeitem", .none),
        ("com.apple.metadata:com_apple_backup_excludeItem ", .none),
        ("com.apple.metadata:kMDItemWhereFroms", .none),
        ("com.apple.backupd", .none),
        ("user.", .none),
        ("", .none),
    ]

    @Test("backup flags by attribute name", arguments: flagRows)
    func flagByName(_ row: (String, ExclusionFlag)) {
        #expect(flag(row.0) == row.1, "\(row.0)")
    }

    static let transportRows: [(String, Bool)] = [
        ("user.com.apple.metadata:com_apple_backup_excludeItem", true),
        ("com.apple.FinderInfo", false),  // Finder adds it on the Mac (see AttributeEvidenceTests)
        ("com.apple.metadata:kMDItemWhereFroms", true),
        ("user.com.apple.provenance", true),  // came over rsync from a Mac
        ("user.com.apple.quarantine", true),
        ("trusted.overlay.opaque", true),
        ("user.xdg.origin.url", true),
        ("com.apple.provenance", false),  // macOS adds these to local files
        ("com.apple.quarantine", false),
        ("security.selinux", false),
        ("security.capability", false),
        ("system.posix_acl_access", false),
        ("system.nfs4_acl", false),
        ("", false),
    ]

    @Test("which attributes show the export kept extended attributes", arguments: transportRows)
    func transportEvidence(_ row: (String, Bool)) {
        #expect(transported(row.0) == row.1, "\(row.0)")
    }
}

/// A fresh temporary folder, removed when `body` returns.
private func withTemporaryFolder(_ body: (TemporaryFolder) throws -> Void) throws {
    let url = URL(fileURLWithPath: try TemporaryTree.makeFolder("xattr"), isDirectory: true)
    defer { try? FileManager.default.removeItem(at: url) }
    try body(TemporaryFolder(url: url))
}

private struct TemporaryFolder {
    let url: URL

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func file(_ name: String, contents: String = "x") throws -> String {
        let path = path(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Attribute names as the platform stores them: Linux only takes Apple's names under `user.`.
private func platformName(_ appleName: String) -> String {
    #if os(Linux)
        "user." + appleName
    #else
        appleName
    #endif
}

/// Sets an attribute, failing the test loudly if the file system refuses (no silent skip).
private func setAttribute(_ name: String, _ value: [UInt8], on path: String) throws {
    let result = value.withUnsafeBytes { bytes in
        #if os(Linux)
            setxattr(path, name, bytes.baseAddress, bytes.count, 0)
        #else
            setxattr(path, name, bytes.baseAddress, bytes.count, 0, 0)
        #endif
    }
    let code = errno
    try #require(
        result == 0,
        "setxattr \(name) on \(path) failed with errno \(code): the temp file system must support user xattrs")
}

private func attributeNames(_ path: String) throws(ExtendedAttributeError) -> [String] {
    try ExtendedAttributes.names(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

@Suite("ExtendedAttributes: listing on disk")
struct ExtendedAttributesTests {
    static let excludeItem = platformName("com.apple.metadata:com_apple_backup_excludeItem")
    static let mobileBackup = platformName("com.apple.MobileBackup")

    @Test("both backup flags are listed and recognised")
    func backupFlags() throws {
        try withTemporaryFolder { folder in
            let path = try folder.file("Den.sqlite")
            try setAttribute(Self.excludeItem, backupExcludeValue, on: path)
            try setAttribute(Self.mobileBackup, [0x01], on: path)

            let names = try ExtendedAttributes.names(atPath: path)
            let transportedNames = names.filter {
                $0.withUnsafeBufferPointer { BackupAttributes.isTransported(attributeName: $0) }
            }
            #expect(
                Set(transportedNames.map { String(decoding: $0, as: UTF8.self) }) == [
                    Self.excludeItem, Self.mobileBackup,
                ])
            let flags = names.map { $0.withUnsafeBufferPointer { BackupAttributes.flag(forAttributeName: $0) } }
            #expect(flags.contains(.xattr))
            #expect(flags.contains(.legacyXattr))
        }
    }

    @Test("a folder's own attributes are listed")
    func folderAttributes() throws {
        try withTemporaryFolder { folder in
            let path = folder.path("Downloads")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try setAttribute(Self.excludeItem, backupExcludeValue, on: path)
            #expect(try attributeNames(path).contains(Self.excludeItem))
        }
    }

    @Test("a file without attributes lists none")
    func noAttributes() throws {
        try withTemporaryFolder { folder in
            let path = try folder.file("plain.txt")
            #expect(
                try attributeNames(path).filter { withName($0) { BackupAttributes.isTransported(attributeName: $0) } }
                    == [])
        }
    }

    @Test("a list longer than the first buffer is read whole")
    func longList() throws {
        try withTemporaryFolder { folder in
            let path = try folder.file("many")
            let expected = (0..<24).map { platformName("com.example.attribute-with-a-long-name-\($0)") }
            for name in expected { try setAttribute(name, [UInt8(name.utf8.count)], on: path) }
            #expect(expected.reduce(0) { $0 + $1.utf8.count + 1 } > 1024)
            let listed = try attributeNames(path)
            #expect(Set(expected).isSubset(of: Set(listed)))
            #expect(listed.count == Set(listed).count)
        }
    }

    @Test("a symlink is not followed")
    func symlinkNotFollowed() throws {
        try withTemporaryFolder { folder in
            let target = try folder.file("target")
            try setAttribute(Self.excludeItem, backupExcludeValue, on: target)
            let link = folder.path("link")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

            #expect(try attributeNames(target).contains(Self.excludeItem))
            #expect(try !attributeNames(link).contains(Self.excludeItem))
        }
    }

    @Test("a missing file throws with its errno")
    func missingFile() throws {
        try withTemporaryFolder { folder in
            let path = folder.path("gone")
            #expect(throws: ExtendedAttributeError(code: ENOENT)) { try ExtendedAttributes.names(atPath: path) }
            #expect(ExtendedAttributeError(code: ENOENT).description.contains("errno \(ENOENT)"))
        }
    }
}
