import StocktakeModel

/// Gives every record its backup state: the location first, then its own flag, then the nearest flagged
/// ancestor, and only then "included" (with evidence that the export carries attributes, or for a place iOS
/// is known to back up) or "unknown".
struct BackupResolver {
    let records: [WalkRecord]
    let parents: [Int32]
    let carriesAttributes: Bool

    func entries() -> [Entry] {
        let flaggedAncestor = nearestFlaggedAncestors()
        return records.indices.map { i in
            let record = records[i]
            let (state, evidence, excludedBy) = resolve(record, ancestor: flaggedAncestor[i])
            return Entry(
                parent: parents[i], nameOffset: record.nameOffset, nameLength: record.nameLength, type: record.type,
                kind: record.kind, location: record.zone.location, flags: record.flags, backup: state, evidence: evidence,
                apparentBytes: record.apparentBytes, allocatedBytes: record.allocatedBytes, modified: record.modified,
                excludedBy: excludedBy)
        }
    }

    private func resolve(_ record: WalkRecord, ancestor: Int32) -> (BackupState, BackupEvidence, Int32) {
        if record.zone.excludedBySystem { return (.excludedBySystem, .location, -1) }
        if let own = record.ownFlag.evidence { return (.excluded, own, -1) }
        if ancestor >= 0 { return (.excluded, .ancestor, ancestor) }
        if record.attributesUnreadable { return (.unknown, .noEvidence, -1) }
        // Cookies, WebKit: real device backups hold them, attributes or not.
        if record.zone.backedUpBySystem && !carriesAttributes { return (.included, .systemLocation, -1) }
        return carriesAttributes ? (.included, .noFlag, -1) : (.unknown, .noEvidence, -1)
    }

    /// For each record, the nearest strict ancestor carrying its own flag, or -1. Memoised so each
    /// directory is resolved once: linear in the number of records.
    private func nearestFlaggedAncestors() -> [Int32] {
        let unresolved: Int32 = -2
        var nearest = [Int32](repeating: unresolved, count: records.count)
        var pending: [Int32] = []
        for start in records.indices where nearest[start] == unresolved {
            var current = Int32(start)
            var answer: Int32 = -1
            while true {
                let parent = parents[Int(current)]
                pending.append(current)
                if parent < 0 { answer = -1; break }
                if records[Int(parent)].ownFlag != .none { answer = parent; break }
                if nearest[Int(parent)] != unresolved { answer = nearest[Int(parent)]; break }
                current = parent
            }
            for index in pending { nearest[Int(index)] = answer }
            pending.removeAll(keepingCapacity: true)
        }
        return nearest
    }
}
