import StocktakeFiles
import StocktakeModel
import StocktakeScan

/// One app's backup domain as an `Inventory`, built from the manifest without walking anything: every record an
/// entry (folders the manifest leaves out are added, size 0), every entry `included` with evidence
/// `deviceBackup`. Apparent bytes are the manifest's `Size`; allocated bytes are estimated (whole 4 KiB blocks).
/// Kinds come from the name, else from the first bytes of the content file when the backup holds it. Built from
/// the `DomainTree` in one pass, linear in its nodes; what lies deeper than `maxDepth` is left out, as a walk
/// leaves it out (the folder at the limit is marked unreadable, with a `tooDeep` issue).
public enum ManifestInventory {
    public static func build(tree: DomainTree, folder: BackupFolder, maxDepth: Int = 256) -> Inventory {
        buildIndexed(tree: tree, folder: folder, maxDepth: maxDepth).inventory
    }

    /// The inventory, and for the content checks each file entry's content file and protection class.
    public static func buildIndexed(tree: DomainTree, folder: BackupFolder, maxDepth: Int = 256) -> (inventory: Inventory, content: BackupContentIndex) {
        let content = BackupContent(folder)
        var fileIDs: [Int32: String] = [:]
        var unprotected = Set<Int32>()
        let rootRecord = tree.nodes[0].record >= 0 ? tree.records[Int(tree.nodes[0].record)] : nil
        let rootModified = rootRecord?.modified ?? 0
        let rootBytes = rootRecord?.size ?? 0
        var entries = [Entry(
            parent: -1, nameOffset: 0, nameLength: 0, type: .directory, kind: .unknown, location: .other, flags: [],
            backup: .included, evidence: .deviceBackup, apparentBytes: rootBytes,
            allocatedBytes: DeviceBackupSummary.estimatedAllocation(rootBytes), modified: rootModified, excludedBy: -1)]
        var names: [UInt8] = []
        var symlinkTargets: [Int32: [UInt8]] = [:]
        var issues = tree.issues
        // Per node: its entry (-1: left out), and what its descendants inherit beyond the second component.
        var entryOfNode = [Int32](repeating: -1, count: tree.nodes.count)
        var inherited = [(location: Location, systemManaged: Bool)](repeating: (.other, false), count: tree.nodes.count)
        entryOfNode[0] = 0
        for index in tree.nodes.indices.dropFirst() {
            let node = tree.nodes[index]
            let parentEntry = entryOfNode[Int(node.parent)]
            guard parentEntry >= 0 else { continue }
            // As the walk: a folder at depth maxDepth + 1 is listed, what it holds is not.
            if Int(node.depth) > maxDepth + 1 {
                let folder = Int(parentEntry)
                if !entries[folder].flags.contains(.unreadable) {
                    entries[folder] = unreadable(entries[folder])
                    issues.append(ScanIssue(path: tree.path(node.parent), reason: .tooDeep, detail: "not listed: deeper than \(maxDepth) levels"))
                }
                continue
            }
            let record = node.record >= 0 ? tree.records[Int(node.record)] : nil
            let place = Self.place(of: index, in: tree, inherited: inherited)
            inherited[index] = place
            let type = record?.type ?? .directory
            var flags: EntryFlags = place.systemManaged ? .systemManaged : []
            if type == .symlink, let target = record?.symlinkTarget, escapes(target, from: Int(node.depth) - 1) { flags.insert(.escapesContainer) }
            let size = record?.size ?? 0
            entries.append(Entry(
                parent: parentEntry, nameOffset: UInt32(names.count), nameLength: UInt16(clamping: node.name.count),
                type: type, kind: record.map { kind(of: $0, name: node.name, content: content) } ?? .unknown, location: place.location,
                flags: flags, backup: .included, evidence: .deviceBackup,
                apparentBytes: size, allocatedBytes: DeviceBackupSummary.estimatedAllocation(size),
                modified: record?.modified ?? rootModified, excludedBy: -1))
            names.append(contentsOf: node.name.prefix(Int(UInt16.max)))
            let entry = Int32(entries.count - 1)
            entryOfNode[index] = entry
            if type == .symlink, let target = record?.symlinkTarget { symlinkTargets[entry] = target }
            if type == .file, let record {
                // Only the kinds the content checks read: a domain of a million media files keeps no names for them.
                if Self.contentKinds.contains(entries[Int(entry)].kind) { fileIDs[entry] = record.fileID }
                if record.protectionClass == ManifestRecord.noProtection { unprotected.insert(entry) }
            }
        }
        if let incomplete = folder.incompleteness { issues.append(incomplete) }
        let inventory = Inventory(
            entries: entries, names: names, symlinkTargets: symlinkTargets, issues: issues,
            evidence: ExportEvidence(
                entriesWithAttributes: 0, appleDoubleSidecars: 0, flaggedByXattr: 0, flaggedByLegacyXattr: 0,
                flaggedByAppleDouble: 0, declaredByUser: false, decidedByDeviceBackup: true))
        return (inventory, BackupContentIndex(folder: folder, fileIDs: fileIDs, unprotected: unprotected))
    }

    private static let contentKinds: Set<ContentKind> = [.binaryPlist, .xmlPlist, .keyedArchive, .sqlite, .realm, .binaryCookies, .json, .text]

    private static func unreadable(_ entry: Entry) -> Entry {
        Entry(
            parent: entry.parent, nameOffset: entry.nameOffset, nameLength: entry.nameLength, type: entry.type, kind: entry.kind,
            location: entry.location, flags: entry.flags.union(.unreadable), backup: entry.backup, evidence: entry.evidence,
            apparentBytes: entry.apparentBytes, allocatedBytes: entry.allocatedBytes, modified: entry.modified, excludedBy: entry.excludedBy)
    }

    /// One domain's records, read as `DomainTree` reads them.
    public static func build(records: [ManifestRecord], folder: BackupFolder, maxDepth: Int = 256) -> Inventory {
        build(tree: DomainTree(records), folder: folder, maxDepth: maxDepth)
    }

    /// A node's location and whether iOS makes it: decided by its first three components (what iOS makes:
    /// SplashBoard, Cookies, WebKit, `Library/com.apple.*`, and everything beneath), so deeper nodes inherit.
    private static func place(of index: Int, in tree: DomainTree, inherited: [(location: Location, systemManaged: Bool)]) -> (location: Location, systemManaged: Bool) {
        let node = tree.nodes[index]
        guard node.depth <= 3 else { return inherited[Int(node.parent)] }
        var components = [node.name]
        var up = node.parent
        while up > 0 {
            components.insert(tree.nodes[Int(up)].name, at: 0)
            up = tree.nodes[Int(up)].parent
        }
        return (Location(relativePath: components), isSystemManaged(components))
    }

    /// What iOS makes (SplashBoard, Cookies, WebKit, `Library/com.apple.*`), and everything beneath it.
    private static func isSystemManaged(_ path: [[UInt8]]) -> Bool {
        if SystemCatalogue.item(in: .root, named: path[0]) != nil { return true }
        guard path[0] == Array("Library".utf8), path.count >= 2 else { return false }
        if SystemCatalogue.item(in: .library, named: path[1]) != nil { return true }
        return path[1] == Array("Caches".utf8) && path.count >= 3 && SystemCatalogue.item(in: .caches, named: path[2]) != nil
    }

    private static func kind(of record: ManifestRecord, name: [UInt8], content: BackupContent) -> ContentKind {
        guard record.type == .file else { return .unknown }
        if let kind = name.withUnsafeBufferPointer({ ContentSniffer.kind(name: $0, size: record.size) }) { return kind }
        var prefix = [UInt8](repeating: 0, count: ContentSniffer.prefixLength)
        do {
            let file = try content.file(fileID: record.fileID)
            let count = try prefix.withUnsafeMutableBytes { buffer throws(FileRefusal) in try file.readPrefix(into: buffer) }
            // The content file is the backed-up bytes; a shorter one (a partial copy) still sniffs by its start.
            return prefix.withUnsafeBytes { bytes in
                name.withUnsafeBufferPointer { ContentSniffer.kind(prefix: UnsafeRawBufferPointer(rebasing: bytes[0..<count]), name: $0) }
            }
        } catch {
            // No content file (a backup listing copied without its content folders), or one reached only through
            // a link (never followed): the kind stays unknown.
            return .unknown
        }
    }

    /// Whether a link's target leaves the container: an absolute path (it names the device's container by its
    /// UUID, which a restore changes), or a relative one climbing above the root from the link's folder.
    static func escapes(_ target: [UInt8], from depth: Int) -> Bool {
        if target.first == UInt8(ascii: "/") { return true }
        var level = depth
        for component in target.split(separator: UInt8(ascii: "/")) {
            if component.elementsEqual("..".utf8) { level -= 1 } else if !component.elementsEqual(".".utf8) { level += 1 }
            if level < 0 { return true }
        }
        return false
    }
}
