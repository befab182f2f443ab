import StocktakeModel

/// Records a tree one entry at a time, parents first, for the archive and backup readers: each entry placed by its
/// folder's zone as the walk places it, finished through `InventoryParts` as the walk is.
package struct TreeRecorder {
    private var records: [EntryRecord] = []
    private var parts = InventoryParts(segments: [], parents: [], nameBases: [0], names: [])

    /// `entries`, `nameBytes`: how many the reader knows may come, reserved at once so that a million records are not
    /// copied as their arrays grow (the old and new arrays would both be alive at the audit's peak of memory).
    package init(
        rootModified: Int64, rootBytes: Int64 = 0, rootAllocated: Int64 = 0, entries: Int = 0, nameBytes: Int = 0
    ) {
        records.reserveCapacity(entries)
        parts.parents.reserveCapacity(entries)
        parts.names.reserveCapacity(nameBytes)
        append(
            parent: -1, name: [], type: .directory, zone: .root, flags: [], ownFlag: .none, apparent: rootBytes,
            allocated: rootAllocated, modified: rootModified, kind: .unknown)
    }

    /// Adds an entry below `parent`, placed by the parent's zone; a name longer than 64 KiB is cut there.
    @discardableResult
    package mutating func add(
        parent: Int32, name: [UInt8], type: EntryType, kind: ContentKind, apparentBytes: Int64, allocatedBytes: Int64,
        modified: Int64, flags: EntryFlags = []
    ) -> Int32 {
        let zone = name.withUnsafeBufferPointer {
            records[Int(parent)].zone.child(named: $0, isDirectory: type == .directory)
        }
        return append(
            parent: parent, name: name, type: type, zone: zone,
            flags: zone.systemManaged ? flags.union(.systemManaged) : flags,
            ownFlag: .none, apparent: apparentBytes, allocated: allocatedBytes, modified: modified, kind: kind)
    }

    /// Adds an entry whose zone and flags the reader has worked out itself (the archive reader pairs sidecars).
    @discardableResult
    mutating func append(
        parent: Int32, name: some Collection<UInt8>, type: EntryType, zone: Zone, flags: EntryFlags,
        ownFlag: ExclusionFlag,
        apparent: Int64, allocated: Int64, modified: Int64, kind: ContentKind
    ) -> Int32 {
        let kept = name.prefix(Int(UInt16.max))
        records.append(
            EntryRecord(
                parent: nil, nameOffset: UInt32(parts.names.count), nameLength: UInt16(kept.count), type: type,
                kind: kind, zone: zone, flags: flags, ownFlag: ownFlag, attributesUnreadable: false,
                apparentBytes: apparent, allocatedBytes: allocated, modified: modified))
        parts.names.append(contentsOf: kept)
        parts.parents.append(parent)
        return Int32(records.count - 1)
    }

    package func flags(of entry: Int32) -> EntryFlags { records[Int(entry)].flags }

    package mutating func insert(_ flags: EntryFlags, at entry: Int32) { records[Int(entry)].flags.formUnion(flags) }

    package mutating func setSymlinkTarget(_ target: [UInt8], of entry: Int32) { parts.symlinkTargets[entry] = target }

    package mutating func report(_ issue: ScanIssue) { parts.issues.append(issue) }

    /// Export evidence the archive reader counts: entries whose attributes travelled, AppleDouble sidecars.
    mutating func countEvidence(entriesWithAttributes: Int = 0, sidecars: Int = 0) {
        parts.entriesWithAttributes += entriesWithAttributes
        parts.appleDoubleSidecars += sidecars
    }

    package consuming func inventory(_ decision: InventoryParts.Decision) -> Inventory {
        parts.segments = [records]
        records = []
        return parts.inventory(decision)
    }
}
