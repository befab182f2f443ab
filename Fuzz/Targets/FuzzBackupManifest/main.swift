import StocktakeModel
import StocktakePropertyLists

@testable import StocktakeBackup

/// What a device backup's manifest holds, on any bytes: the bytes as a `Files` row's `MBFile` archive, as
/// `Manifest.plist` and `Status.plist`, and, a line each, as one domain's relative paths (the tree, the
/// inventory and the overlay built from them). Values or thrown errors, never a trap, an out-of-bounds read or a
/// hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackupManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let file = try? MBFile.decode(bytes) {
        _ = ManifestRecord.type(flags: Int64(size % 6), mode: file.mode)
    }
    if let plist = try? PropertyListReader.parse(bytes) {
        let folder = BackupFolder(path: "/nonexistent-backup", manifest: plist, status: plist)
        _ = (folder.productVersion, folder.date, folder.incompleteness)
        if case .dictionary(let applications)? = plist["Applications"] {
            for key in applications.keys.prefix(16) { _ = folder.declaredCompanions(of: key) }
        }
    }
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(512)
    let records = lines.enumerated().map { index, line in
        ManifestRecord(
            fileID: "", domain: "AppDomain-a.b", relativePath: Array(line),
            type: [.directory, .file, .symlink][index % 3],
            size: Int64(line.count), mode: nil, modified: 0,
            symlinkTarget: index % 3 == 2 ? Array(line.reversed()) : nil,
            protectionClass: UInt8(truncatingIfNeeded: index))
    }
    let tree = DomainTree(records)
    let (inventory, _) = ManifestInventory.build(
        tree: tree, folder: BackupFolder(path: "/nonexistent-backup", manifest: nil, status: nil), maxDepth: 32)
    _ = BackupOverlay(tree: tree).apply(to: inventory)
    return 0
}
