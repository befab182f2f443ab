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

/// Extended attributes read through a descriptor opened relative to the folder's (how the walk reads them on
/// Darwin, which has no per-thread working directory): no path is walked, so a path past PATH_MAX (1,024 bytes on
/// Darwin, 4,096 on Linux) still gives its entry's backup flag, and a link is never followed.
@Suite struct AttributesThroughDescriptorTests {
    static let excludeItem = platformName("com.apple.metadata:com_apple_backup_excludeItem")

    /// Apple's names as the platform stores them: Linux keeps them under `user.` (as rsync -X does).
    static func platformName(_ appleName: String) -> String {
        #if os(Linux)
            "user." + appleName
        #else
            appleName
        #endif
    }

    /// A chain of folders under `tree` built one component at a time (no path call could reach its end), and
    /// `bottom.txt` in the last one, excluded from backup through its descriptor. Returns the open last folder
    /// (the caller closes it) and the chain's path relative to the tree.
    static func deepFolder(in tree: TemporaryTree, bytes: Int) throws -> (fd: Int32, path: String) {
        let component = String(repeating: "d", count: 200)
        let components = ["Documents"] + Array(repeating: component, count: bytes / (component.count + 1) + 1)
        var fd = open(tree.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(fd >= 0)
        for step in components {
            try #require(mkdirat(fd, step, 0o755) == 0, "mkdirat: errno \(errno)")
            let next = openat(fd, step, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            close(fd)
            fd = next
            try #require(fd >= 0)
        }
        let file = openat(fd, "bottom.txt", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        try #require(file >= 0)
        defer { close(file) }
        try #require(write(file, "deep", 4) == 4)
        try setAttribute(excludeItem, TemporaryTree.backupExclusionValue, onDescriptor: file)
        return (fd, components.joined(separator: "/"))
    }

    static func setAttribute(_ name: String, _ value: [UInt8], onDescriptor fd: Int32) throws {
        #if os(Linux)
            let result = fsetxattr(fd, name, value, value.count, 0)
        #else
            let result = fsetxattr(fd, name, value, value.count, 0, 0)
        #endif
        try #require(
            result == 0, "fsetxattr \(name): errno \(errno) (the temporary folder's file system must take user xattrs)")
    }

    /// Linux lists attribute names without read permission on the file; Darwin only for root.
    static func listsNamesWithoutReadPermission() -> Bool {
        #if os(Linux)
            return true
        #else
            return geteuid() == 0
        #endif
    }

    static func strings(_ names: [[UInt8]]?) -> [String]? {
        names.map { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    @Test func aPathPastPathMaxIsReadThroughTheFolder() throws {
        let tree = try TemporaryTree("xattr-deep")
        let (folder, path) = try Self.deepFolder(in: tree, bytes: 4200)
        defer { close(folder) }
        let full = tree.root + "/" + path + "/bottom.txt"
        #expect(full.utf8.count > 4096)  // past PATH_MAX on Linux (4,096) and far past Darwin's (1,024)
        // By path, the call cannot even name the file.
        #expect(throws: ExtendedAttributeError(code: ENAMETOOLONG)) { try ExtendedAttributes.names(atPath: full) }
        // Through the folder's descriptor, one component: read.
        let names = try ExtendedAttributes.names(of: "bottom.txt", inFolder: folder)
        #expect(Self.strings(names)?.contains(Self.excludeItem) == true)
    }

    @Test func aFolderIsReadThroughItsParent() throws {
        let tree = try TemporaryTree("xattr-folder")
        try tree.mkdir("Downloads")
        try tree.excludeFromBackup("Downloads")
        let root = open(tree.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(root) }
        #expect(
            Self.strings(try ExtendedAttributes.names(of: "Downloads", inFolder: root))?.contains(Self.excludeItem)
                == true)
    }

    /// A link is never followed: its target's attributes never show. Darwin opens the link itself (`O_SYMLINK`) and
    /// lists its own; Linux cannot open a link for `flistxattr` and answers nil, and the caller asks by path.
    @Test func aLinkIsNotFollowed() throws {
        let tree = try TemporaryTree("xattr-link")
        try tree.write("target.txt", string: "x")
        try tree.excludeFromBackup("target.txt")
        try tree.symlink("link", to: "target.txt")
        let root = open(tree.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(root) }
        let names = Self.strings(try ExtendedAttributes.names(of: "link", inFolder: root))
        #expect(names?.contains(Self.excludeItem) != true)
        #if os(Linux)
            #expect(names == nil)
        #else
            #expect(names != nil)
        #endif
    }

    /// What cannot be opened gives nil, not an error: the caller then asks by path, as the walk did before.
    @Test func anEntryThatCannotBeOpenedGivesNil() throws {
        let tree = try TemporaryTree("xattr-gone")
        let root = open(tree.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(root) }
        #expect(try ExtendedAttributes.names(of: "gone", inFolder: root) == nil)
    }

    /// The walk reads a deep entry's flag and reports nothing: on Linux from inside the folder (its own working
    /// directory), on Darwin through the folder's descriptor (the full path is past Darwin's PATH_MAX).
    @Test func theWalkReadsFlagsPastPathMax() throws {
        let tree = try TemporaryTree("xattr-walk")
        let (folder, path) = try Self.deepFolder(in: tree, bytes: 1500)
        close(folder)
        #expect((tree.root + "/" + path + "/bottom.txt").utf8.count > 1024)
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(inventory.issues.isEmpty, "\(inventory.issues)")
        let bottom = try #require(inventory.index(ofPath: Array((path + "/bottom.txt").utf8)))
        #expect(inventory.entries[Int(bottom)].backup == .excluded)
        #expect(inventory.entries[Int(bottom)].evidence == .xattr)
    }

    /// A file the walk may not read (mode 000) is handled as before the descriptor route: it cannot be opened, so
    /// its attributes are asked for by path. Linux lists names without read permission (`llistxattr`), so the flag
    /// is read. Darwin authorizes listing as reading (`vn_listxattr` asks for `KAUTH_VNODE_READ_EXTATTRIBUTES`,
    /// which POSIX modes grant only with `r`: `vnode_authorize_simple`, XNU `bsd/vfs/vfs_subr.c`), so unless run as
    /// root the path call fails with EACCES, as it always did: the state is unknown and an issue says why.
    @Test func anUnreadableFileIsHandledAsBefore() throws {
        let tree = try TemporaryTree("xattr-000")
        try tree.write("Documents/locked.db", string: "x")
        try tree.excludeFromBackup("Documents/locked.db")
        #expect(chmod(tree.path("Documents/locked.db"), 0) == 0)
        defer { chmod(tree.path("Documents/locked.db"), 0o644) }
        let inventory = try InventoryScanner.scan(root: tree.root)
        let locked = inventory.entries[Int(try #require(inventory.index(ofPath: Array("Documents/locked.db".utf8))))]
        let unread = inventory.issues.filter { $0.detail.contains("extended attributes not read") }
        if Self.listsNamesWithoutReadPermission() {
            #expect(locked.backup == .excluded)
            #expect(locked.evidence == .xattr)
            #expect(unread.isEmpty)
        } else {
            #expect(locked.backup == .unknown)
            #expect(unread.map(\.reason) == [.permissionDenied])
        }
    }
}
