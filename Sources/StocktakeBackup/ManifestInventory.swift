import StocktakeContent
import StocktakeFiles
import StocktakeModel
import StocktakeScan

/// One app's backup domain as an `Inventory`, built from the manifest without walking anything, through the walk's
/// own `TreeRecorder` so that places and the `maxDepth` cut are decided as for a walk.
package enum ManifestInventory {
    /// The inventory, and for the content checks each file entry's content file and protection class.
    package static func build(tree: DomainTree, folder: BackupFolder, maxDepth: Int = 256) -> (
        inventory: Inventory, content: BackupContentIndex
    ) {
        let content = BackupContent(folder)
        var fileIDs: [Int32: String] = [:]
        var unprotected = Set<Int32>()
        let rootRecord = tree.nodes[0].record >= 0 ? tree.records[Int(tree.nodes[0].record)] : nil
        let rootModified = rootRecord?.modified ?? 0
        let rootBytes = rootRecord?.size ?? 0
        let rootAllocated = DeviceBackupSummary.estimatedAllocation(rootBytes)
        var recorder = TreeRecorder(rootModified: rootModified, rootBytes: rootBytes, rootAllocated: rootAllocated)
        for issue in tree.issues { recorder.report(issue) }
        // Per node: its entry (-1: left out).
        var entryOfNode = [Int32](repeating: -1, count: tree.nodes.count)
        entryOfNode[0] = 0
        for index in tree.nodes.indices.dropFirst() {
            let node = tree.nodes[index]
            let parentEntry = entryOfNode[Int(node.parent)]
            guard parentEntry >= 0 else { continue }
            // As the walk: a folder at depth maxDepth + 1 is listed, what it holds is not.
            if Int(node.depth) > maxDepth + 1 {
                if !recorder.flags(of: parentEntry).contains(.unreadable) {
                    recorder.insert(.unreadable, at: parentEntry)
                    recorder.report(
                        ScanIssue(
                            path: tree.path(node.parent), reason: .tooDeep,
                            detail: "not listed: deeper than \(maxDepth) levels"))
                }
                continue
            }
            let record = node.record >= 0 ? tree.records[Int(node.record)] : nil
            let type = record?.type ?? .directory
            let escaping =
                type == .symlink && record?.symlinkTarget.map { escapes($0, from: Int(node.depth) - 1) } == true
            let flags: EntryFlags = escaping ? [.escapesContainer] : []
            let size = record?.size ?? 0
            let contentKind = record.map { Self.kind(of: $0, name: node.name, content: content) } ?? .unknown
            let entry = recorder.add(
                parent: parentEntry, name: node.name, type: type, kind: contentKind, apparentBytes: size,
                allocatedBytes: DeviceBackupSummary.estimatedAllocation(size),
                modified: record?.modified ?? rootModified, flags: flags)
            entryOfNode[index] = entry
            if type == .symlink, let target = record?.symlinkTarget { recorder.setSymlinkTarget(target, of: entry) }
            if type == .file, let record {
                // Only the kinds the content checks read: a domain of a million media files keeps no names for them.
                if Self.contentKinds.contains(contentKind) { fileIDs[entry] = record.fileID }
                if record.protectionClass == ManifestRecord.noProtection { unprotected.insert(entry) }
            }
        }
        if let incomplete = folder.incompleteness { recorder.report(incomplete) }
        return (
            recorder.inventory(.deviceBackup),
            BackupContentIndex(folder: folder, fileIDs: fileIDs, unprotected: unprotected)
        )
    }

    private static let contentKinds: Set<ContentKind> = [
        .binaryPlist, .xmlPlist, .keyedArchive, .sqlite, .realm, .binaryCookies, .json, .text,
    ]

    private static func kind(of record: ManifestRecord, name: [UInt8], content: BackupContent) -> ContentKind {
        guard record.type == .file else { return .unknown }
        if let kind = name.withUnsafeBufferPointer({ ContentSniffer.kind(name: $0, size: record.size) }) { return kind }
        do {
            // The content file is the backed-up bytes; a shorter one (a partial copy) still sniffs by its start.
            let prefix = try content.file(fileID: record.fileID).read(at: 0, count: ContentSniffer.prefixLength)
            return prefix.withUnsafeBytes { bytes in
                name.withUnsafeBufferPointer { ContentSniffer.kind(prefix: bytes, name: $0) }
            }
        } catch {
            // No content file, or one reached only through a link (never followed).
            return .unknown
        }
    }

    /// Absolute (naming the device's container by a UUID a restore changes), or climbing above the root.
    static func escapes(_ target: [UInt8], from depth: Int) -> Bool {
        target.first == UInt8(ascii: "/") || !SymlinkCheck.stays(depth: depth, following: target)
    }
}
