import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeScan

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device node cannot carry extended attributes on Darwin, which says so with EPERM rather than ENOTSUP: that
/// is "none", not an unreadable entry of unknown backup state.
@Suite struct DeviceAttributeTests {
    @Test func whichFailuresMeanNoAttributes() {
        for type in EntryType.allCases {
            let device = type == .characterDevice || type == .blockDevice
            #expect(ExtendedAttributes.meansNoAttributes(EPERM, type: type) == device, "EPERM, \(type.name)")
            #expect(ExtendedAttributes.meansNoAttributes(EOPNOTSUPP, type: type), "EOPNOTSUPP, \(type.name)")
            #expect(ExtendedAttributes.meansNoAttributes(ENOTSUP, type: type), "ENOTSUP, \(type.name)")
            for code in [EACCES, EIO, ENOENT, ELOOP, ENAMETOOLONG] {
                #expect(!ExtendedAttributes.meansNoAttributes(code, type: type), "errno \(code), \(type.name)")
            }
        }
    }

    /// Whether this process may make a device node (root, or CAP_MKNOD): probed once in a folder of its own.
    static let canMakeDeviceNodes: Bool = {
        guard let tree = try? TemporaryTree("mknod-probe") else { return false }
        return makeNull(tree.path("null"))
    }()

    /// A character device like `/dev/null` (same major and minor numbers).
    static func makeNull(_ path: String) -> Bool {
        var null = stat()
        return stat("/dev/null", &null) == 0 && mknod(path, S_IFCHR | 0o666, null.st_rdev) == 0
    }

    /// A real walk over a character device and a FIFO: both recorded, neither an issue nor of unknown backup
    /// state (backed up, as any entry without a flag in an export that carries attributes). (Linux lists a device's attributes, so there this guards the walk's route; Darwin refuses them.)
    @Test(.enabled(if: canMakeDeviceNodes, "mknod is refused here: making a device node needs root or CAP_MKNOD"))
    func aDeviceNodeAndAFIFOAreWalkedWithoutIssues() throws {
        let tree = try TemporaryTree("device-node")
        // One flagged file: the export carries attributes, so an entry without a flag is "included", not unknown.
        try tree.write("Documents/a.txt", string: "beside them")
        try tree.excludeFromBackup("Documents/a.txt")
        try tree.mkfifo("Documents/pipe")
        try #require(Self.makeNull(tree.path("Documents/null")), "mknod: errno \(errno)")
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(inventory.issues.isEmpty, "\(inventory.issues)")
        for (path, type) in ["Documents/pipe": EntryType.fifo, "Documents/null": .characterDevice] {
            let entry = inventory.entries[Int(try #require(inventory.index(ofPath: Array(path.utf8)), "\(path)"))]
            #expect(entry.type == type, "\(path)")
            #expect(entry.backup == .included && entry.evidence == .noFlag, "\(path): \(entry.backup)")
        }
    }
}
