/// Builds an `Inventory` in memory from paths: for rule examples and tests that need a container without disk.
/// Missing parent folders are created, names go into the shared arena, the location follows the contract
/// table and the backup state follows the location unless given, and every folder's total is summed.
public struct InventoryBuilder {
    /// One entry before it is frozen into an `Entry` (a folder created as a parent may be described later).
    private struct Draft {
        var parent: Int32
        var name: [UInt8]
        var type: EntryType
        var kind: ContentKind
        var location: Location
        var flags: EntryFlags
        var backup: BackupState
        var evidence: BackupEvidence
        var apparentBytes: Int64
        var allocatedBytes: Int64
        var modified: Int64
        var excludedBy: Int32
    }

    /// A folder's own size, as ext4 reports it.
    public static let folderBytes: Int64 = 4096

    private var drafts: [Draft]
    private var indexByPath: [[UInt8]: Int32] = [[]: 0]
    public var symlinkTargets: [Int32: [UInt8]] = [:]

    public init() {
        drafts = [Draft(
            parent: -1, name: [], type: .directory, kind: .unknown, location: .other, flags: [], backup: .unknown,
            evidence: .noEvidence, apparentBytes: Self.folderBytes, allocatedBytes: Self.folderBytes, modified: 0,
            excludedBy: -1)]
    }

    /// Adds (or redescribes) the entry at `path`, `/`-separated and relative to the container root.
    /// Allocated bytes default to the apparent size rounded up to 4 KiB blocks (folders: one block).
    @discardableResult
    public mutating func add(
        _ path: String, type: EntryType = .file, apparentBytes: Int64? = nil, allocatedBytes: Int64? = nil,
        kind: ContentKind? = nil, location: Location? = nil, backup: BackupState? = nil, evidence: BackupEvidence? = nil,
        flags: EntryFlags = [], modified: Int64 = 1_700_000_000, symlinkTarget: String? = nil
    ) -> Int32 {
        add(
            pathBytes: Array(path.utf8), type: type, apparentBytes: apparentBytes, allocatedBytes: allocatedBytes, kind: kind,
            location: location, backup: backup, evidence: evidence, flags: flags, modified: modified,
            symlinkTarget: symlinkTarget.map { Array($0.utf8) })
    }

    /// `add` for names that are not UTF-8: the path as raw bytes.
    @discardableResult
    public mutating func add(
        pathBytes path: [UInt8], type: EntryType = .file, apparentBytes: Int64? = nil, allocatedBytes: Int64? = nil,
        kind: ContentKind? = nil, location: Location? = nil, backup: BackupState? = nil, evidence: BackupEvidence? = nil,
        flags: EntryFlags = [], modified: Int64 = 1_700_000_000, symlinkTarget: [UInt8]? = nil
    ) -> Int32 {
        let components = path.split(separator: UInt8(ascii: "/")).map(Array.init)
        precondition(!components.isEmpty, "InventoryBuilder.add needs a path below the root")
        let parent = folder(components.dropLast())
        let name = components[components.count - 1]
        let location = location ?? Self.location(of: components)
        let (defaultBackup, defaultEvidence) = Self.backup(for: location)
        let apparent = apparentBytes ?? (type == .directory ? Self.folderBytes : 0)
        let draft = Draft(
            parent: parent, name: name, type: type, kind: kind ?? Self.kind(name: name, type: type, bytes: apparent),
            location: location, flags: flags, backup: backup ?? defaultBackup, evidence: evidence ?? defaultEvidence,
            apparentBytes: apparent, allocatedBytes: allocatedBytes ?? (apparent + 4095) / 4096 * 4096, modified: modified,
            excludedBy: -1)
        let index = upsert(Array(components.joined(separator: [UInt8(ascii: "/")])), draft)
        if let symlinkTarget { symlinkTargets[index] = symlinkTarget }
        return index
    }

    /// The finished inventory (the model computes every folder's total).
    public func build(issues: [ScanIssue] = [], evidence: ExportEvidence? = nil) -> Inventory {
        var names: [UInt8] = []
        var entries: [Entry] = []
        for draft in drafts {
            let excludedBy = draft.evidence == .ancestor ? flaggedAncestor(of: draft) : draft.excludedBy
            entries.append(Entry(
                parent: draft.parent, nameOffset: UInt32(names.count), nameLength: UInt16(draft.name.count), type: draft.type,
                kind: draft.kind, location: draft.location, flags: draft.flags, backup: draft.backup, evidence: draft.evidence,
                apparentBytes: draft.apparentBytes, allocatedBytes: draft.allocatedBytes, modified: draft.modified,
                excludedBy: excludedBy))
            names.append(contentsOf: draft.name)
        }
        return Inventory(
            entries: entries, names: names, symlinkTargets: symlinkTargets, issues: issues,
            evidence: evidence ?? ExportEvidence(
                entriesWithAttributes: 0, appleDoubleSidecars: 0, flaggedByXattr: 0, flaggedByLegacyXattr: 0,
                flaggedByAppleDouble: 0, declaredByUser: false))
    }

    /// For entries excluded through an ancestor: the nearest folder above carrying its own flag, or -1.
    private func flaggedAncestor(of draft: Draft) -> Int32 {
        var current = draft.parent
        while current >= 0 {
            let ancestor = drafts[Int(current)]
            if [.xattr, .legacyXattr, .appleDouble].contains(ancestor.evidence) { return current }
            current = ancestor.parent
        }
        return -1
    }

    /// The folder at `components`, created (with its own parents) when missing.
    private mutating func folder(_ components: ArraySlice<[UInt8]>) -> Int32 {
        guard let last = components.last else { return 0 }
        let path = Array(components.joined(separator: [UInt8(ascii: "/")]))
        if let index = indexByPath[path] { return index }
        let parent = folder(components.dropLast())
        let location = Self.location(of: Array(components))
        let (backup, evidence) = Self.backup(for: location)
        return upsert(path, Draft(
            parent: parent, name: last, type: .directory, kind: .unknown, location: location, flags: [], backup: backup,
            evidence: evidence, apparentBytes: Self.folderBytes, allocatedBytes: Self.folderBytes, modified: 1_700_000_000,
            excludedBy: -1))
    }

    private mutating func upsert(_ path: [UInt8], _ draft: Draft) -> Int32 {
        if let index = indexByPath[path] {
            drafts[Int(index)] = draft
            return index
        }
        drafts.append(draft)
        let index = Int32(drafts.count - 1)
        indexByPath[path] = index
        return index
    }

    /// The contract's location table, by the first path components.
    public static func location(of components: [[UInt8]]) -> Location { Location(relativePath: components) }

    private static func backup(for location: Location) -> (BackupState, BackupEvidence) {
        location.isPurgeable ? (.excludedBySystem, .location) : (.unknown, .noEvidence)
    }

    private static func kind(name: [UInt8], type: EntryType, bytes: Int64) -> ContentKind {
        guard type == .file else { return .unknown }
        if bytes == 0 { return .empty }
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        let byExtension: [(String, ContentKind)] = [
            (".sqlite-wal", .sqliteWAL), (".sqlite-shm", .sqliteSHM), (".sqlite", .sqlite), (".db", .sqlite),
            (".store", .sqlite), (".jpg", .jpeg), (".jpeg", .jpeg), (".png", .png), (".heic", .heic), (".json", .json),
            (".txt", .text), (".plist", .binaryPlist), (".mp4", .mp4), (".mov", .mov), (".pdf", .pdf), (".zip", .zip),
            (".binarycookies", .binaryCookies),
        ]
        return byExtension.first { lowered.hasSuffix($0.0) }?.1 ?? .unknown
    }
}
