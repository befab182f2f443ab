import StocktakeModel

/// Turns the workers' stores into one immutable `Inventory`: global indices, hard links counted once,
/// flags from `__MACOSX/` applied, backup state inherited from the nearest flagged ancestor, directory totals.
struct InventoryAssembler {
    let stores: [WorkerStore]
    let xattrsDeclared: Bool
    /// Sidecars of a `__MACOSX/` beside the package (an unzipped Finder zip).
    var beside = BesideSidecars()

    func assemble() -> Inventory {
        var bases: [Int] = []
        var nameBases: [Int] = []
        var records: [WalkRecord] = []
        var names: [UInt8] = []
        records.reserveCapacity(stores.reduce(0) { $0 + $1.records.count })
        for store in stores {
            bases.append(records.count)
            nameBases.append(names.count)
            records.append(contentsOf: store.records)
            names.append(contentsOf: store.names)
            // Give the worker's copy back now: at a million entries two copies would double the peak.
            store.records = []
            store.names = []
        }
        func global(_ ref: RecordRef) -> Int32 { Int32(bases[ref.worker] + ref.index) }

        var parents = [Int32](repeating: -1, count: records.count)
        for (i, record) in records.enumerated() {
            if let parent = record.parent { parents[i] = global(parent) }
        }
        for w in stores.indices where nameBases[w] > 0 {
            let end = w + 1 < bases.count ? bases[w + 1] : records.count
            for i in bases[w]..<end { records[i].nameOffset += UInt32(nameBases[w]) }
        }
        for store in stores {
            for ref in store.unreadable { records[Int(global(ref))].flags.insert(.unreadable) }
            for (ref, flag) in store.folderFlags where records[Int(global(ref))].ownFlag == .none {
                records[Int(global(ref))].ownFlag = flag
            }
        }
        var symlinkTargets: [Int32: [UInt8]] = [:]
        for store in stores {
            for (ref, target) in store.symlinkTargets { symlinkTargets[global(ref)] = target }
        }
        // Worked out from paths first and applied after: mutating `records` while the draft still shares them
        // would copy all of them.
        let (duplicates, sequestered) = {
            let draft = Draft(records: records, parents: parents, names: names)
            let links = stores.flatMap { store in store.hardLinks.map { (global($0.ref), $0.device, $0.inode) } }
            return (hardLinkDuplicates(draft: draft, links: links), sequesteredFlags(draft: draft))
        }()
        for index in duplicates { records[Int(index)].flags.insert(.hardLinkDuplicate) }
        for (index, flag) in sequestered where records[Int(index)].ownFlag == .none { records[Int(index)].ownFlag = flag }

        let evidence = ExportEvidence(
            entriesWithAttributes: stores.reduce(0) { $0 + $1.entriesWithAttributes },
            appleDoubleSidecars: stores.reduce(0) { $0 + $1.appleDoubleSidecars } + beside.sidecars,
            flaggedByXattr: records.count { $0.ownFlag == .xattr },
            flaggedByLegacyXattr: records.count { $0.ownFlag == .legacyXattr },
            flaggedByAppleDouble: records.count { $0.ownFlag == .appleDouble },
            declaredByUser: xattrsDeclared)
        let entries = BackupResolver(records: records, parents: parents, carriesAttributes: evidence.carriesAttributes).entries()
        return Inventory(entries: entries, names: names, symlinkTargets: symlinkTargets, issues: sortedIssues(), evidence: evidence)
    }

    private func sortedIssues() -> [ScanIssue] {
        (stores.flatMap(\.issues) + beside.issues).sorted {
            $0.path.lexicographicallyPrecedes($1.path) || ($0.path == $1.path && $0.reason.rawValue < $1.reason.rawValue)
        }
    }

    /// Among the names of one inode, the one with the smallest path carries the bytes; the rest are duplicates.
    private func hardLinkDuplicates(draft: Draft, links: [(Int32, UInt64, UInt64)]) -> [Int32] {
        var byInode: [UInt64: [UInt64: [Int32]]] = [:]
        for (index, device, inode) in links { byInode[device, default: [:]][inode, default: []].append(index) }
        var duplicates: [Int32] = []
        for inodes in byInode.values {
            for group in inodes.values where group.count > 1 {
                let ordered = group.sorted { draft.path($0).lexicographicallyPrecedes(draft.path($1)) }
                duplicates += ordered.dropFirst()
            }
        }
        return duplicates
    }

    /// The records that `__MACOSX/` sidecars (in the export or beside it) flag.
    private func sequesteredFlags(draft: Draft) -> [(Int32, ExclusionFlag)] {
        let flags = stores.flatMap(\.sequesteredFlags) + beside.flags
        guard !flags.isEmpty else { return [] }
        let wanted = Set(flags.map(\.target))
        var found: [[UInt8]: Int32] = [:]
        for i in draft.records.indices where draft.records[i].type != .symlink {
            let path = draft.path(Int32(i))
            if wanted.contains(path) { found[path] = Int32(i) }
        }
        return flags.compactMap { target, flag in found[target].map { ($0, flag) } }
    }
}

/// Paths of records before the inventory exists (for the rare hard-link and `__MACOSX/` cases).
private struct Draft {
    let records: [WalkRecord]
    let parents: [Int32]
    let names: [UInt8]

    func path(_ index: Int32) -> [UInt8] {
        Inventory.path(of: index, parent: { parents[Int($0)] }) { step in
            let record = records[Int(step)]
            return names[Int(record.nameOffset)..<Int(record.nameOffset) + Int(record.nameLength)]
        }
    }
}
