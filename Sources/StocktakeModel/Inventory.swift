import Dispatch

/// The immutable snapshot of one container: every entry, its classification, sizes and backup state,
/// plus totals and what could not be read. Index 0 is the container root.
public struct Inventory: Sendable {
    public let entries: [Entry]
    /// The name bytes of every entry, back to back (names need not be UTF-8).
    public let names: [UInt8]
    /// Targets of symlinks, as stored (never followed).
    public let symlinkTargets: [Int32: [UInt8]]
    /// Per directory: its own size and everything beneath it (`du` of that directory, hard links once);
    /// `files` counts the non-directory entries beneath it.
    public let directoryTotals: [Int32: SizeTotal]
    public let issues: [ScanIssue]
    public let evidence: ExportEvidence
    public let totals: InventoryTotals
    /// Children of each entry sorted by name bytes: `childIndices[childStart[i]..<childStart[i + 1]]`.
    private let childStart: [Int32]
    private let childIndices: [Int32]
    /// Every entry in the order of `forEachInPathOrder`, worked out once: a dozen rules and writers visit it.
    private let pathOrder: [Int32]

    public init(
        entries: [Entry], names: [UInt8], symlinkTargets: [Int32: [UInt8]], issues: [ScanIssue],
        evidence: ExportEvidence
    ) {
        self.entries = entries
        self.names = names
        self.symlinkTargets = symlinkTargets
        self.issues = issues
        self.evidence = evidence
        // The tables are independent, and the children's sort splits into quarters: with the totals started first,
        // the five parts keep both cores busy (at a million entries the sort is a tenth of a second of CPU).
        var (childStart, childIndices) = Inventory.childLists(entries)
        var directoryTotals: [Int32: SizeTotal] = [:]
        var totals: InventoryTotals?
        let quarters = (1..<4).map { Inventory.firstParent(holding: Int32(entries.count * $0 / 4), childStart) }
        let splits = [0] + quarters + [entries.count]
        childIndices.withUnsafeMutableBufferPointer { children in
            nonisolated(unsafe) let children = children
            SideBySide.run(5) { part in
                guard part > 0 else {
                    directoryTotals = Inventory.directoryTotals(entries)
                    totals = InventoryTotals(entries: entries)
                    return
                }
                Inventory.sortChildren(
                    of: splits[part - 1]..<splits[part], in: children, start: childStart, entries: entries,
                    names: names)
            }
        }
        pathOrder = Inventory.preorder(count: entries.count, childStart: childStart, childIndices: childIndices)
        self.childStart = childStart
        self.childIndices = childIndices
        self.directoryTotals = directoryTotals
        self.totals = totals!
    }

    public var root: Int32 { 0 }

    public func name(_ index: Int32) -> ArraySlice<UInt8> {
        let entry = entries[Int(index)]
        let start = Int(entry.nameOffset)
        return names[start..<start + Int(entry.nameLength)]
    }

    public func children(_ index: Int32) -> ArraySlice<Int32> {
        childIndices[Int(childStart[Int(index)])..<Int(childStart[Int(index) + 1])]
    }

    /// The path relative to the container root, `/`-separated; empty for the root.
    public func path(_ index: Int32) -> [UInt8] {
        Inventory.path(of: index, parent: { entries[Int($0)].parent }, name: name)
    }

    /// Joins the names up the parent chain (index 0, the root, has no name). Shared with the scanner,
    /// which needs paths before the inventory exists.
    public static func path(of index: Int32, parent: (Int32) -> Int32, name: (Int32) -> ArraySlice<UInt8>) -> [UInt8] {
        var chain: [Int32] = []
        var current = index
        while current > 0 {
            chain.append(current)
            current = parent(current)
        }
        var path: [UInt8] = []
        for step in chain.reversed() {
            if !path.isEmpty { path.append(UInt8(ascii: "/")) }
            path.append(contentsOf: name(step))
        }
        return path
    }

    /// The entry at a `/`-separated path relative to the root, if present.
    public func index(ofPath path: [UInt8]) -> Int32? {
        var current = root
        for component in path.split(separator: UInt8(ascii: "/")) {
            guard let next = child(named: component, of: current) else { return nil }
            current = next
        }
        return entries.isEmpty ? nil : current
    }

    /// The first child so named, by binary search in the children's order: a file sorts as its name, a folder as its
    /// name and "/" (a flat folder of a million files is not scanned once per look-up).
    private func child(named name: ArraySlice<UInt8>, of parent: Int32) -> Int32? {
        let children = children(parent)
        let slash = [UInt8(ascii: "/")]
        func sortKey(_ child: Int32) -> [UInt8] { self.name(child) + (entries[Int(child)].isDirectory ? slash : []) }
        for key in [Array(name), name + slash] {
            var (low, high) = (children.startIndex, children.endIndex)
            while low < high {
                let middle = (low + high) / 2
                (low, high) =
                    sortKey(children[middle]).lexicographicallyPrecedes(key)
                    ? (middle + 1, high) : (low, middle)
            }
            if low < children.endIndex, sortKey(children[low]) == key { return children[low] }
        }
        return nil
    }

    /// Depth-first, in byte order of the full paths: a deterministic visit of every entry. Builds no
    /// paths: most visitors only need the index.
    public func forEachInPathOrder(_ body: (Int32) throws -> Void) rethrows {
        for index in pathOrder { try body(index) }
    }

    /// The same visit with each entry, copied a block ahead: path order jumps about the table, and a block's loads,
    /// made together, overlap their cache misses.
    public func forEachEntryInPathOrder(_ body: (Int32, Entry) throws -> Void) rethrows {
        for start in stride(from: 0, to: pathOrder.count, by: 4096) {
            let block = pathOrder[start..<min(start + 4096, pathOrder.count)]
            for (index, entry) in zip(block, block.map { entries[Int($0)] }) { try body(index, entry) }
        }
    }

    /// The same visit, with each entry's path built incrementally (no per-entry parent walk).
    public func forEachInPathOrder(_ body: (Int32, [UInt8]) throws -> Void) rethrows {
        // The folders above the entry being visited, each with its path's length.
        var open: [(index: Int32, length: Int)] = []
        var path: [UInt8] = []
        for index in pathOrder {
            let parent = entries[Int(index)].parent
            while let last = open.last, last.index != parent { open.removeLast() }
            path.removeSubrange((open.last?.length ?? 0)...)
            if index != root {
                if !path.isEmpty { path.append(UInt8(ascii: "/")) }
                path.append(contentsOf: name(index))
            }
            try body(index, path)
            open.append((index, path.count))
        }
    }

    /// Depth-first from the root, children in their sorted order.
    private static func preorder(count: Int, childStart: [Int32], childIndices: [Int32]) -> [Int32] {
        guard count > 0 else { return [] }
        var order: [Int32] = []
        order.reserveCapacity(count)
        var stack: [Int32] = [0]
        while let index = stack.popLast() {
            order.append(index)
            stack.append(
                contentsOf: childIndices[Int(childStart[Int(index)])..<Int(childStart[Int(index) + 1])].reversed())
        }
        return order
    }

    /// Each entry's children, unsorted: `indices[start[i]..<start[i + 1]]`.
    private static func childLists(_ entries: [Entry]) -> (start: [Int32], indices: [Int32]) {
        var counts = [Int32](repeating: 0, count: entries.count + 1)
        for entry in entries where entry.parent >= 0 { counts[Int(entry.parent) + 1] += 1 }
        for i in counts.indices.dropFirst() { counts[i] += counts[i - 1] }
        var fill = counts
        var indices = [Int32](repeating: 0, count: max(0, entries.count - 1))
        for (i, entry) in entries.enumerated() where entry.parent >= 0 {
            indices[Int(fill[Int(entry.parent)])] = Int32(i)
            fill[Int(entry.parent)] += 1
        }
        return (counts, indices)
    }

    /// The first parent whose children start at or after position `child` of the child lists.
    private static func firstParent(holding child: Int32, _ start: [Int32]) -> Int {
        var low = 0
        var high = start.count - 1
        while low < high {
            let middle = (low + high) / 2
            if start[middle] < child { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Sorts the children of each parent in `parents` by name bytes.
    private static func sortChildren(
        of parents: Range<Int>, in children: UnsafeMutableBufferPointer<Int32>, start: [Int32], entries: [Entry],
        names: [UInt8]
    ) {
        entries.withUnsafeBufferPointer { entries in
            names.withUnsafeBufferPointer { arena in
                func nameOf(_ i: Int32) -> UnsafeBufferPointer<UInt8> {
                    let entry = entries[Int(i)]
                    return UnsafeBufferPointer(
                        rebasing: arena[Int(entry.nameOffset)..<Int(entry.nameOffset) + Int(entry.nameLength)])
                }
                func word(_ name: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt64 {
                    UInt64(
                        bigEndian: UnsafeRawPointer(name.baseAddress!).loadUnaligned(
                            fromByteOffset: at, as: UInt64.self))
                }
                // A folder sorts as its name plus "/", so the depth-first visit lists full paths in byte order.
                func precedes(_ a: Int32, _ b: Int32) -> Bool {
                    let (left, right) = (nameOf(a), nameOf(b))
                    let common = min(left.count, right.count)
                    // Eight bytes a step, as big-endian words order like their bytes: names share long prefixes.
                    var start = 0
                    while start + 8 <= common {
                        let (x, y) = (word(left, start), word(right, start))
                        if x != y { return x < y }
                        start += 8
                    }
                    for i in start..<common where left[i] != right[i] { return left[i] < right[i] }
                    func next(_ index: Int32, _ name: UnsafeBufferPointer<UInt8>) -> Int {
                        name.count > common
                            ? Int(name[common]) : entries[Int(index)].isDirectory ? Int(UInt8(ascii: "/")) : -1
                    }
                    return next(a, left) < next(b, right)
                }
                for parent in parents {
                    let range = Int(start[parent])..<Int(start[parent + 1])
                    guard range.count > 1 else { continue }
                    children[range].sort(by: precedes)
                }
            }
        }
    }

    /// Each counted entry's bytes go to itself and every ancestor: linear in entries times depth. Sums are kept for
    /// folders only: three for each of a million entries were 24 MB of fresh pages.
    private static func directoryTotals(_ entries: [Entry]) -> [Int32: SizeTotal] {
        let folders = entries.indices.filter { entries[$0].isDirectory }
        var slot = [Int32](repeating: -1, count: entries.count)
        for (position, folder) in folders.enumerated() { slot[folder] = Int32(position) }
        var sums = [SizeTotal](repeating: .zero, count: folders.count)
        for (i, entry) in entries.enumerated() {
            let counted = entry.countsBytes
            // The app's files, as every view counts them (docs/reports.md, "Figures"): folders and transport artefacts left out.
            let countsAsFile = !entry.isDirectory && !entry.flags.contains(.transportArtefact)
            var current = Int32(i)
            while current >= 0 {
                let folder = Int(slot[Int(current)])
                if folder >= 0 && counted {
                    sums[folder].apparentBytes = sums[folder].apparentBytes.saturatingAdd(entry.apparentBytes)
                    sums[folder].allocatedBytes = sums[folder].allocatedBytes.saturatingAdd(entry.allocatedBytes)
                }
                if folder >= 0 && countsAsFile && current != Int32(i) { sums[folder].files += 1 }
                current = entries[Int(current)].parent
            }
        }
        return Dictionary(uniqueKeysWithValues: zip(folders.map { Int32($0) }, sums))
    }
}
