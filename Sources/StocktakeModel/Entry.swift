/// Facts about one entry beyond its type, packed in a byte.
public struct EntryFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// iOS manages it (SplashBoard, Cookies, `Cache.db`, …): "iOS did this", not "the app did this".
    public static let systemManaged = EntryFlags(rawValue: 1 << 0)
    /// Another name of the same inode was counted; this one adds no bytes to any total.
    public static let hardLinkDuplicate = EntryFlags(rawValue: 1 << 1)
    public static let hardLinked = EntryFlags(rawValue: 1 << 2)
    /// Allocated bytes are fewer than apparent bytes: the file has holes.
    public static let sparse = EntryFlags(rawValue: 1 << 3)
    /// A symlink whose target resolves outside the container root (never followed).
    public static let escapesContainer = EntryFlags(rawValue: 1 << 4)
    /// An AppleDouble sidecar or `__MACOSX/` entry: transport metadata, not the app's data.
    public static let transportArtefact = EntryFlags(rawValue: 1 << 5)
    /// The audit could not list (directory) or inspect (file) it; `issues` says why.
    public static let unreadable = EntryFlags(rawValue: 1 << 6)
    /// A device backup settled the backup state against what the export's own flags or the location rules
    /// predicted (in the backup though flagged, or missing though expected there).
    public static let backupDisagrees = EntryFlags(rawValue: 1 << 7)
}

/// One entry of the container, stored compactly: a million of these must fit in little memory.
/// The name lives in the inventory's shared byte arena; the path is rebuilt from the parent chain.
public struct Entry: Sendable {
    /// Index of the parent directory in `Inventory.entries`; -1 for the container root.
    public let parent: Int32
    public let nameOffset: UInt32
    public let nameLength: UInt16
    public let type: EntryType
    public let kind: ContentKind
    public let location: Location
    public let flags: EntryFlags
    public let backup: BackupState
    public let evidence: BackupEvidence
    /// `st_size`.
    public let apparentBytes: Int64
    /// `st_blocks × 512`: what the entry occupies on the file system holding the export.
    public let allocatedBytes: Int64
    /// Modification time, seconds since 1970 (UTC).
    public let modified: Int64
    /// For `evidence == .ancestor`: the index of the flagged ancestor; otherwise -1.
    public let excludedBy: Int32

    public init(
        parent: Int32, nameOffset: UInt32, nameLength: UInt16, type: EntryType, kind: ContentKind, location: Location,
        flags: EntryFlags, backup: BackupState, evidence: BackupEvidence, apparentBytes: Int64, allocatedBytes: Int64,
        modified: Int64, excludedBy: Int32
    ) {
        self.parent = parent
        self.nameOffset = nameOffset
        self.nameLength = nameLength
        self.type = type
        self.kind = kind
        self.location = location
        self.flags = flags
        self.backup = backup
        self.evidence = evidence
        self.apparentBytes = apparentBytes
        self.allocatedBytes = allocatedBytes
        self.modified = modified
        self.excludedBy = excludedBy
    }

    public var isDirectory: Bool { type == .directory }
    /// Whether the entry's bytes count toward totals (hard links count once).
    public var countsBytes: Bool { !flags.contains(.hardLinkDuplicate) }
    /// App data: a non-directory entry that is not a transport artefact.
    public var isAppData: Bool { type != .directory && !flags.contains(.transportArtefact) }
}
