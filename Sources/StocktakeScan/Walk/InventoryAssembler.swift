import StocktakeContent
import StocktakeModel

/// Joins the workers' stores into the parts of one `Inventory`: global indices, hard links counted once, flags
/// from `__MACOSX/` applied; `InventoryParts` then resolves the backup states.
struct InventoryAssembler {
    let stores: [WorkerStore]
    let xattrsDeclared: Bool
    /// Sidecars of a `__MACOSX/` beside the package (an unzipped Finder zip).
    var beside = BesideSidecars()
    var textScan: WalkTextScan?

    func assemble() -> Inventory {
        // Global index = the worker's base + its own index. The records stay in the workers' stores (a
        // million of them are not copied into one array); only the names are joined into one arena.
        var bases: [Int] = []
        var nameBases: [UInt32] = []
        var names: [UInt8] = []
        var count = 0
        names.reserveCapacity(stores.reduce(0) { $0 + $1.names.count })
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
        var symlinkTargets: [Int32: [UInt8]] = [:]
        for store in stores {
            for ref in store.unreadable { stores[ref.worker].records[ref.index].flags.insert(.unreadable) }
            for (ref, flag) in store.folderFlags where stores[ref.worker].records[ref.index].ownFlag == .none {
                stores[ref.worker].records[ref.index].ownFlag = flag
            }
            for (ref, target) in store.symlinkTargets { symlinkTargets[global(ref)] = target }
        }
        textScan?.recordClean(stores.flatMap { $0.cleanText.map(global) })
        let links = stores.flatMap { store in store.hardLinks.map { (global($0.ref), $0.device, $0.inode) } }
        let wanted = stores.flatMap(\.sequesteredFlags) + beside.flags
        // Paths, for the rare cases that need them (hard links, `__MACOSX/` flags).
        func path(_ index: Int32) -> [UInt8] {
            Inventory.path(of: index, parent: { parents[Int($0)] }) { step in
                let (worker, i) = local(step)
                let start = Int(stores[worker].records[i].nameOffset) + Int(nameBases[worker])
                return names[start..<start + Int(stores[worker].records[i].nameLength)]
            }
        }
        // Among the names of one inode, the one with the smallest path carries the bytes; the rest are duplicates.
        let byInode = Dictionary(grouping: links) { [$0.1, $0.2] }.values.filter { $0.count > 1 }
        for group in byInode {
            for (index, _, _) in group.sorted(by: { path($0.0).lexicographicallyPrecedes(path($1.0)) }).dropFirst() {
                let (worker, i) = local(index)
                stores[worker].records[i].flags.insert(.hardLinkDuplicate)
            }
        }
        if !wanted.isEmpty {
            let targets = Set(wanted.map(\.target))
            var found: [[UInt8]: Int32] = [:]
            for i in 0..<Int32(count) where stores[local(i).worker].records[local(i).index].type != .symlink {
                let path = path(i)
                if targets.contains(path) { found[path] = i }
            }
            for (target, flag) in wanted {
                guard let index = found[target] else { continue }
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
}
