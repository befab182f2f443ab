import Dispatch
import StocktakeModel

/// Gives every record its backup state. By the export: `ExportBackup`'s rule, from the record's zone, its own flag
/// and its nearest flagged ancestor. By a device backup: "included", as the backup lists it.
struct BackupResolver {
    enum Rule {
        case export(carriesAttributes: Bool)
        case deviceBackup
    }

    /// The records in global order, in consecutive pieces (see `InventoryParts.segments`).
    let segments: [[EntryRecord]]
    let parents: [Int32]
    /// Each record's own flag, by global index: the ancestor search reads it at random.
    let ownFlags: [ExclusionFlag]
    let nameBases: [UInt32]

    init(segments: [[EntryRecord]], parents: [Int32], nameBases: [UInt32]) {
        (self.segments, self.parents, self.nameBases) = (segments, parents, nameBases)
        ownFlags = segments.flatMap { $0.map(\.ownFlag) }
    }

    /// The export's evidence counts of own flags, from the same table.
    func flagCount(_ flag: ExclusionFlag) -> Int { ownFlags.count { $0 == flag } }

    func entries(_ rule: Rule) -> [Entry] {
        let ancestors = nearestFlaggedAncestors()
        let count = parents.count
        // Two halves side by side: at a million records this is a tenth of a second of copying.
        let middle = count / 2
        return [Entry](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let buffer = buffer
            SideBySide.run(2) { half in
                fill(buffer, from: half * middle, to: half == 0 ? middle : count, ancestors: ancestors, rule: rule)
            }
            initialized = count
        }
    }

    private func fill(
        _ buffer: UnsafeMutableBufferPointer<Entry>, from start: Int, to end: Int, ancestors: [Int32], rule: Rule
    ) {
        var base = 0
        for (segment, records) in segments.enumerated() {
            let lower = max(start, base)
            for i in lower..<max(lower, min(end, base + records.count)) {
                let record = records[i - base]
                let (state, evidence, excludedBy) =
                    switch rule {
                    case .deviceBackup: (BackupState.included, BackupEvidence.deviceBackup, Int32(-1))
                    case .export(let carriesAttributes):
                        ExportBackup.decide(
                            zone: record.zone, ownFlag: record.ownFlag, flaggedAncestor: ancestors[i],
                            attributesUnreadable: record.attributesUnreadable, carriesAttributes: carriesAttributes)
                    }
                (buffer.baseAddress! + i).initialize(
                    to: Entry(
                        parent: parents[i], nameOffset: record.nameOffset + nameBases[segment],
                        nameLength: record.nameLength, type: record.type, kind: record.kind,
                        location: record.zone.location, flags: record.flags, backup: state, evidence: evidence,
                        apparentBytes: record.apparentBytes, allocatedBytes: record.allocatedBytes,
                        modified: record.modified, excludedBy: excludedBy))
            }
            base += records.count
        }
    }

    /// For each record, the nearest strict ancestor carrying its own flag, or -1; memoised, so linear.
    private func nearestFlaggedAncestors() -> [Int32] {
        let unresolved: Int32 = -2
        var nearest = [Int32](repeating: unresolved, count: parents.count)
        var pending: [Int32] = []
        for start in parents.indices where nearest[start] == unresolved {
            var current = Int32(start)
            var answer: Int32
            while true {
                let parent = parents[Int(current)]
                pending.append(current)
                answer = parent < 0 ? -1 : ownFlags[Int(parent)] != .none ? parent : nearest[Int(parent)]
                if answer != unresolved { break }
                current = parent
            }
            for index in pending { nearest[Int(index)] = answer }
            pending.removeAll(keepingCapacity: true)
        }
        return nearest
    }
}
