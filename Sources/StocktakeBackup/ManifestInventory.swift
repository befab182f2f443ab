import StocktakeFiles
import StocktakeModel
import StocktakeScan

/// One app's backup domain as an `Inventory`, built from the manifest without walking anything: every record an
/// entry (folders the manifest leaves out are added, size 0), every entry `included` with evidence
/// `deviceBackup`. Apparent bytes are the manifest's `Size`; allocated bytes are estimated (whole 4 KiB blocks).
/// Kinds come from the name, else from the first bytes of the content file when the backup holds it.
public enum ManifestInventory {
    public static func build(records: [ManifestRecord], folder: BackupFolder) -> Inventory {
        let sorted = records.map { (path: components($0.relativePath), record: $0) }
            .sorted { $0.path.lexicographicallyPrecedes($1.path) { $0.lexicographicallyPrecedes($1) } }
        var builder = Builder()
        for (path, record) in sorted {
            guard !path.isEmpty else {
                builder.describeRoot(record)
                continue
            }
            builder.add(path, record: record, kind: kind(of: record, name: path[path.count - 1], folder: folder))
        }
        return builder.inventory(issues: folder.incompleteness.map { [$0] } ?? [])
    }

    /// `/`-separated components, empty ones (a leading, doubled or trailing `/`) dropped.
    static func components(_ path: [UInt8]) -> [[UInt8]] {
        path.split(separator: UInt8(ascii: "/")).map(Array.init)
    }

    private static func kind(of record: ManifestRecord, name: [UInt8], folder: BackupFolder) -> ContentKind {
        guard record.type == .file else { return .unknown }
        if let kind = name.withUnsafeBufferPointer({ ContentSniffer.kind(name: $0, size: record.size) }) { return kind }
        guard let path = folder.contentPath(fileID: record.fileID) else { return .unknown }
        var prefix = [UInt8](repeating: 0, count: ContentSniffer.prefixLength)
        do {
            var options = RegularFile.Options.insideContainer(maxBytes: nil)
            let file = try RegularFile.open(path, options: &options)
            let count = try prefix.withUnsafeMutableBytes { buffer throws(FileRefusal) in try file.readPrefix(into: buffer) }
            // The content file is the backed-up bytes; a shorter one (a partial copy) still sniffs by its start.
            return prefix.withUnsafeBytes { bytes in
                name.withUnsafeBufferPointer { ContentSniffer.kind(prefix: UnsafeRawBufferPointer(rebasing: bytes[0..<count]), name: $0) }
            }
        } catch {
            // No content file (a backup listing copied without its content folders): the kind stays unknown.
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

    /// Entries in path order, parents before children; folders the manifest does not list are made on the way.
    private struct Builder {
        var entries: [Entry] = []
        var names: [UInt8] = []
        var symlinkTargets: [Int32: [UInt8]] = [:]
        var indexByPath: [[[UInt8]]: Int32] = [:]
        var rootModified: Int64 = 0
        var rootBytes: Int64 = 0

        mutating func describeRoot(_ record: ManifestRecord) {
            rootModified = record.modified
            rootBytes = record.size
        }

        mutating func add(_ path: [[UInt8]], record: ManifestRecord?, kind: ContentKind) {
            if indexByPath[path] != nil { return }
            let parent = path.count == 1 ? Int32(0) : folder(Array(path.dropLast()))
            let name = path[path.count - 1]
            let size = record?.size ?? 0
            let entry = Entry(
                parent: parent, nameOffset: UInt32(names.count), nameLength: UInt16(clamping: name.count),
                type: record?.type ?? .directory, kind: kind, location: Location(relativePath: path),
                flags: Self.flags(path, record: record), backup: .included, evidence: .deviceBackup,
                apparentBytes: size, allocatedBytes: DeviceBackupSummary.estimatedAllocation(size),
                modified: record?.modified ?? rootModified, excludedBy: -1)
            names.append(contentsOf: name.prefix(Int(UInt16.max)))
            entries.append(entry)
            let index = Int32(entries.count) // the root goes in front when the inventory is made
            indexByPath[path] = index
            if let target = record?.symlinkTarget, record?.type == .symlink { symlinkTargets[index] = target }
        }

        private mutating func folder(_ path: [[UInt8]]) -> Int32 {
            if let index = indexByPath[path] { return index }
            add(path, record: nil, kind: .unknown)
            return indexByPath[path] ?? 0
        }

        func inventory(issues: [ScanIssue]) -> Inventory {
            let root = Entry(
                parent: -1, nameOffset: 0, nameLength: 0, type: .directory, kind: .unknown, location: .other, flags: [],
                backup: .included, evidence: .deviceBackup, apparentBytes: rootBytes,
                allocatedBytes: DeviceBackupSummary.estimatedAllocation(rootBytes), modified: rootModified, excludedBy: -1)
            return Inventory(
                entries: [root] + entries, names: names, symlinkTargets: symlinkTargets, issues: issues,
                evidence: ExportEvidence(
                    entriesWithAttributes: 0, appleDoubleSidecars: 0, flaggedByXattr: 0, flaggedByLegacyXattr: 0,
                    flaggedByAppleDouble: 0, declaredByUser: false, decidedByDeviceBackup: true))
        }

        private static func flags(_ path: [[UInt8]], record: ManifestRecord?) -> EntryFlags {
            var flags: EntryFlags = isSystemManaged(path) ? .systemManaged : []
            if record?.type == .symlink, let target = record?.symlinkTarget, ManifestInventory.escapes(target, from: path.count - 1) { flags.insert(.escapesContainer) }
            return flags
        }

        /// What iOS makes (SplashBoard, Cookies, WebKit, `Library/com.apple.*`), and everything beneath it.
        private static func isSystemManaged(_ path: [[UInt8]]) -> Bool {
            if SystemCatalogue.item(in: .root, named: path[0]) != nil { return true }
            guard path[0] == Array("Library".utf8), path.count >= 2 else { return false }
            if SystemCatalogue.item(in: .library, named: path[1]) != nil { return true }
            return path[1] == Array("Caches".utf8) && path.count >= 3 && SystemCatalogue.item(in: .caches, named: path[2]) != nil
        }
    }
}
