/// Builds an `Inventory` in memory from paths: for rule examples and tests that need a container without disk.
/// Missing parent folders are created and names go into the shared arena. Every entry is placed by the walk's
/// classifier (`Zone`: location, system-managed, transport) with its kind from the walk's name table, and its
/// backup state follows the walk's rule (`ExportBackup`) unless given; the model sums every folder's total.
public struct InventoryBuilder {
    /// One entry before it is frozen into an `Entry` (a folder created as a parent may be described later).
    private struct Draft {
        var parent: Int32
        var name: [UInt8]
        var type: EntryType
        var kind: ContentKind
        var zone: Zone
        var flags: EntryFlags
        /// Given by the caller: what the classifier cannot know (a flag's verdict, a device backup's).
        var backup: BackupState? = nil
        var evidence: BackupEvidence? = nil
        var apparentBytes = InventoryBuilder.folderBytes
        var allocatedBytes = InventoryBuilder.folderBytes
        var modified: Int64 = 1_700_000_000
    }

    /// A folder's own size, as ext4 reports it.
    public static let folderBytes: Int64 = 4096

    /// An export that shows no sign of having kept extended attributes: unflagged entries are `unknown`.
    public static let noAttributes = ExportEvidence(declaredByUser: false)
    /// An export the user says kept extended attributes (`--xattrs-preserved`): unflagged entries are `included`.
    public static let attributesKept = ExportEvidence(declaredByUser: true)

    private var drafts: [Draft]
    private var indexByPath: [[UInt8]: Int32] = [[]: 0]
    public var symlinkTargets: [Int32: [UInt8]] = [:]
    /// What the export shows about attributes, when `build` is given none; as for the walk, it decides whether an
    /// unflagged entry in a backed-up place is `included` or `unknown`.
    public var evidence = InventoryBuilder.noAttributes

    public init() {
        drafts = [Draft(parent: -1, name: [], type: .directory, kind: .unknown, zone: .root, flags: [], modified: 0)]
    }

    /// Adds (or redescribes) the entry at `path`, `/`-separated and relative to the container root.
    /// Allocated bytes default to the apparent size rounded up to 4 KiB blocks (folders: one block). `backup` and
    /// `evidence` override what the walk's rule gives: an exclusion flag on the entry (`.excluded` with `.xattr`,
    /// `.legacyXattr` or `.appleDouble`, which its descendants then inherit), or a device backup's verdict.
    @discardableResult public mutating func add(
        _ path: String, type: EntryType = .file, apparentBytes: Int64? = nil, allocatedBytes: Int64? = nil,
        kind: ContentKind? = nil, backup: BackupState? = nil, evidence: BackupEvidence? = nil, flags: EntryFlags = [],
        modified: Int64 = 1_700_000_000, symlinkTarget: String? = nil
    ) -> Int32 {
        add(
            pathBytes: Array(path.utf8), type: type, apparentBytes: apparentBytes, allocatedBytes: allocatedBytes,
            kind: kind, backup: backup, evidence: evidence, flags: flags, modified: modified,
            symlinkTarget: symlinkTarget.map { Array($0.utf8) })
    }

    /// `add` for names that are not UTF-8: the path as raw bytes.
    @discardableResult public mutating func add(
        pathBytes path: [UInt8], type: EntryType = .file, apparentBytes: Int64? = nil, allocatedBytes: Int64? = nil,
        kind: ContentKind? = nil, backup: BackupState? = nil, evidence: BackupEvidence? = nil, flags: EntryFlags = [],
        modified: Int64 = 1_700_000_000, symlinkTarget: [UInt8]? = nil
    ) -> Int32 {
        let components = path.split(separator: UInt8(ascii: "/")).map(Array.init)
        precondition(!components.isEmpty, "InventoryBuilder.add needs a path below the root")
        let parent = folder(components.dropLast())
        let name = components[components.count - 1]
        let zone = child(named: name, of: parent, isDirectory: type == .directory)
        let apparent = apparentBytes ?? (type == .directory ? Self.folderBytes : 0)
        let draft = Draft(
            parent: parent, name: name, type: type, kind: kind ?? Self.kind(name: name, type: type, bytes: apparent),
            zone: zone, flags: flags.union(Self.flags(of: zone)), backup: backup, evidence: evidence,
            apparentBytes: apparent, allocatedBytes: allocatedBytes ?? (apparent + 4095) / 4096 * 4096,
            modified: modified)
        let index = upsert(Array(components.joined(separator: [UInt8(ascii: "/")])), draft)
        if let symlinkTarget { symlinkTargets[index] = symlinkTarget }
        return index
    }

    /// The finished inventory (the model computes every folder's total).
    public func build(issues: [ScanIssue] = [], evidence: ExportEvidence? = nil) -> Inventory {
        let evidence = evidence ?? self.evidence
        var names: [UInt8] = []
        var entries: [Entry] = []
        for draft in drafts {
            let ancestor = flaggedAncestor(of: draft)
            var (backup, because, excludedBy) = ExportBackup.decide(
                zone: draft.zone, ownFlag: Self.ownFlag(draft), flaggedAncestor: ancestor, attributesUnreadable: false,
                carriesAttributes: evidence.carriesAttributes)
            if let given = draft.backup { backup = given }
            if let given = draft.evidence { because = given }
            excludedBy = because == .ancestor ? ancestor : -1
            entries.append(
                Entry(
                    parent: draft.parent, nameOffset: UInt32(names.count), nameLength: UInt16(draft.name.count),
                    type: draft.type, kind: draft.kind, location: draft.zone.location, flags: draft.flags,
                    backup: backup, evidence: because, apparentBytes: draft.apparentBytes,
                    allocatedBytes: draft.allocatedBytes, modified: draft.modified, excludedBy: excludedBy))
            names.append(contentsOf: draft.name)
        }
        return Inventory(
            entries: entries, names: names, symlinkTargets: symlinkTargets, issues: issues, evidence: evidence)
    }

    /// An exclusion flag the caller gave the entry itself: the flag whose evidence it named.
    private static func ownFlag(_ draft: Draft) -> ExclusionFlag {
        [.xattr, .legacyXattr, .appleDouble].first { $0.evidence == draft.evidence } ?? .none
    }

    /// The nearest folder above carrying its own flag, or -1.
    private func flaggedAncestor(of draft: Draft) -> Int32 {
        var current = draft.parent
        while current >= 0 {
            let ancestor = drafts[Int(current)]
            if Self.ownFlag(ancestor) != .none { return current }
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
        let zone = child(named: last, of: parent, isDirectory: true)
        let draft = Draft(
            parent: parent, name: last, type: .directory, kind: .unknown, zone: zone, flags: Self.flags(of: zone))
        return upsert(path, draft)
    }

    private func child(named name: [UInt8], of parent: Int32, isDirectory: Bool) -> Zone {
        name.withUnsafeBufferPointer { drafts[Int(parent)].zone.child(named: $0, isDirectory: isDirectory) }
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

    private static func flags(of zone: Zone) -> EntryFlags {
        var flags: EntryFlags = []
        if zone.systemManaged { flags.insert(.systemManaged) }
        if zone.transport { flags.insert(.transportArtefact) }
        return flags
    }

    /// As the walk tells it from the name; a file whose name does not settle it has no content here to read.
    private static func kind(name: [UInt8], type: EntryType, bytes: Int64) -> ContentKind {
        guard type == .file else { return .unknown }
        if bytes == 0 { return .empty }
        return name.withUnsafeBufferPointer { ContentKind.named($0) } ?? .unknown
    }
}
