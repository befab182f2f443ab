import StocktakeModel

/// Everything a reader gathers before the inventory exists (records parents first, names, link targets, problems,
/// evidence counts), from the walk's stores or a `TreeRecorder`. `inventory(_:)` is the one way to an `Inventory`.
package struct InventoryParts {
    /// The records in consecutive pieces (the walk's workers each keep their own), so a million records are not
    /// copied into one array first.
    var segments: [[EntryRecord]]
    /// Each record's parent by global index (-1: the root).
    var parents: [Int32]
    /// Added to each segment's name offsets: where its names start in `names`.
    var nameBases: [UInt32]
    var names: [UInt8]
    var symlinkTargets: [Int32: [UInt8]] = [:]
    var issues: [ScanIssue] = []
    var entriesWithAttributes = 0
    var appleDoubleSidecars = 0

    /// Who decides what iOS backs up.
    package enum Decision {
        /// The export: its places, the flags on entries and their folders; `xattrsDeclared`: the user says the
        /// export kept extended attributes, so an entry without a flag is included.
        case export(xattrsDeclared: Bool)
        /// A device backup that lists every entry: each one is `included`, with the backup as evidence.
        case deviceBackup
    }

    /// The records are released as they are copied out (`consuming`).
    consuming func inventory(_ decision: Decision) -> Inventory {
        let resolver = BackupResolver(segments: segments, parents: parents, nameBases: nameBases)
        segments = []
        let evidence: ExportEvidence
        let entries: [Entry]
        switch decision {
        case .export(let declared):
            evidence = ExportEvidence(
                entriesWithAttributes: entriesWithAttributes, appleDoubleSidecars: appleDoubleSidecars,
                flaggedByXattr: resolver.flagCount(.xattr), flaggedByLegacyXattr: resolver.flagCount(.legacyXattr),
                flaggedByAppleDouble: resolver.flagCount(.appleDouble), declaredByUser: declared)
            entries = resolver.entries(.export(carriesAttributes: evidence.carriesAttributes))
        case .deviceBackup:
            evidence = ExportEvidence(
                entriesWithAttributes: 0, appleDoubleSidecars: 0, flaggedByXattr: 0, flaggedByLegacyXattr: 0,
                flaggedByAppleDouble: 0, declaredByUser: false, decidedByDeviceBackup: true)
            entries = resolver.entries(.deviceBackup)
        }
        let ordered = issues.sorted {
            $0.path.lexicographicallyPrecedes($1.path)
                || ($0.path == $1.path && $0.reason.rawValue < $1.reason.rawValue)
        }
        return Inventory(
            entries: entries, names: names, symlinkTargets: symlinkTargets, issues: ordered, evidence: evidence)
    }
}

/// What a reader learns about one entry, before backup states, ancestors' flags and hard links are resolved.
struct EntryRecord {
    /// The walk's reference to the parent in its worker's store; the archive and backup readers keep parents apart.
    var parent: RecordRef?
    var nameOffset: UInt32
    var nameLength: UInt16
    var type: EntryType
    var kind: ContentKind
    /// Its place: location, whether iOS backs it up or makes it (for a folder, also what its children inherit).
    var zone: Zone
    var flags: EntryFlags
    var ownFlag: ExclusionFlag
    /// Its attributes could not be listed: no "included" without them.
    var attributesUnreadable: Bool
    var apparentBytes: Int64
    var allocatedBytes: Int64
    var modified: Int64
}
