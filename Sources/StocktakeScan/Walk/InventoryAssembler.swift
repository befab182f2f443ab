import StocktakeModel

/// Joins the workers' stores into the parts of one `Inventory`: global indices, hard links counted once, flags
/// from `__MACOSX/` applied; `InventoryParts` then resolves the backup states.
struct InventoryAssembler {
    let stores: [WorkerStore]
    let xattrsDeclared: Bool
    /// Sidecars of a `__MACOSX/` beside the package (an unzipped Finder zip).
    var beside = BesideSidecars()

    func assemble() -> Inventory {
        // Global index = the worker's base + its own index. The records stay in the workers' stores (a
        // million of them are not copied into one array); only the names are joined into one arena.
        var bases: [Int] = []
        var nameBases: [UInt32] = []
        var names: [UInt8] = []
        var count = 0
        for store in stores {
            bases.append(count)
            nameBases.append(UInt32(names.count))
            count += store.records.count
            names.append(contentsOf: store.names)
            store.names = []
        }
        func global(_ ref: RecordRef) -> Int32 { Int32(bases[ref.worker] + ref.index) }
        func local(_ index: Int32) -> (worker: Int, index: Int) {
            let worker = bases.lastIndex { $0 <= Int(index) }!
            return (worker, Int(index) - bases[worker])
        }

        var parents = [Int32](repeating: -1, count: count)
        for (w, store) in stores.enumerated() {
            for (i, record) in store.records.enumerated() {
                if let parent = record.parent { parents[bases[w] + i] = global(parent) }
            }
        }
        for store in stores {
            for ref in store.unreadable { stores[ref.worker].records[ref.index].flags.insert(.unreadable) }
            for (ref, flag) in store.folderFlags where stores[ref.worker].records[ref.index].ownFlag == .none {
                stores[ref.worker].records[ref.index].ownFlag = flag
            }
        }
        var symlinkTargets: [Int32: [UInt8]] = [:]
        for store in stores {
            for (ref, target) in store.symlinkTargets { symlinkTargets[global(ref)] = target }
        }
        let links = stores.flatMap { store in store.hardLinks.map { (global($0.ref), $0.device, $0.inode) } }
        let wanted = stores.flatMap(\.sequesteredFlags) + beside.flags
        if !links.isEmpty || !wanted.isEmpty {
            // The rare cases that need paths: worked out first, applied after.
            let draft = Draft(
                count: count, parents: parents, names: names,
                nameRange: { index in
                    let (worker, i) = local(index)
                    let record = stores[worker].records[i]
                    let start = Int(record.nameOffset) + Int(nameBases[worker])
                    return start..<start + Int(record.nameLength)
                },
                isSymlink: { index in
                    let (worker, i) = local(index)
                    return stores[worker].records[i].type == .symlink
                })
            for index in hardLinkDuplicates(draft: draft, links: links) {
                let (worker, i) = local(index)
                stores[worker].records[i].flags.insert(.hardLinkDuplicate)
            }
            for (index, flag) in sequesteredFlags(wanted, draft: draft) {
                let (worker, i) = local(index)
                if stores[worker].records[i].ownFlag == .none { stores[worker].records[i].ownFlag = flag }
            }
        }

        let parts = InventoryParts(
            segments: stores.map(\.records), parents: parents, nameBases: nameBases, names: names,
            symlinkTargets: symlinkTargets, issues: stores.flatMap(\.issues) + beside.issues,
            entriesWithAttributes: stores.reduce(0) { $0 + $1.entriesWithAttributes },
            appleDoubleSidecars: stores.reduce(0) { $0 + $1.appleDoubleSidecars } + beside.sidecars)
        // Give the workers' copies back, so that the parts hold the only reference and release it as they go.
        for store in stores { store.records = [] }
        return parts.inventory(.export(xattrsDeclared: xattrsDeclared))
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
    private func sequesteredFlags(_ flags: [(target: [UInt8], flag: ExclusionFlag)], draft: Draft) -> [(
        Int32, ExclusionFlag
    )] {
        let wanted = Set(flags.map(\.target))
        var found: [[UInt8]: Int32] = [:]
        for i in 0..<Int32(draft.count) where !draft.isSymlink(i) {
            let path = draft.path(i)
            if wanted.contains(path) { found[path] = i }
        }
        return flags.compactMap { target, flag in found[target].map { ($0, flag) } }
    }
}

/// Paths of records before the inventory exists (for the rare hard-link and `__MACOSX/` cases).
private struct Draft {
    let count: Int
    let parents: [Int32]
    let names: [UInt8]
    let nameRange: (Int32) -> Range<Int>
    let isSymlink: (Int32) -> Bool

    func path(_ index: Int32) -> [UInt8] {
        Inventory.path(of: index, parent: { parents[Int($0)] }) { step in names[nameRange(step)] }
    }
}
