import StocktakeModel

/// What a reader learns about one entry (from a walk, an archive's headers or a backup's manifest), before
/// backup states, ancestors' flags and hard links are resolved.
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
