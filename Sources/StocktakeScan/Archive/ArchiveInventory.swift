import StocktakeContent
import StocktakeModel

/// Turns the archive tree below the container root into an `Inventory` by the walk's own rules (zones, sidecar
/// pairing, backup resolution); facts come from the headers and pax records, allocated sizes as APFS's 4 KiB blocks.
struct ArchiveInventory {
    let tree: ArchiveTree
    let listing: ArchiveListing
    let root: Int32
    let options: ScanOptions
    /// Absolute-looking name of the root, for link targets: an absolute target never stays inside an archive.
    let rootName: [UInt8]

    static let blockSize: Int64 = 4096

    /// The inventory's records, and for each entry the ordinal of the archive entry holding its data (-1: none).
    func build() -> (TreeRecorder, [Int32]) {
        var state = BuildState(
            root: root, modified: listing.member(of: root)?.modified ?? 0, nodes: tree.nodes.count,
            nameBytes: tree.nameBytes)
        let sequestered = sequesteredFlags(&state)
        // Only the folders waiting on the stack hold their paths, not every entry.
        var stack: [(node: Int32, record: Int32, zone: Zone, depth: Int, path: [UInt8])] = [(root, 0, .root, 0, [])]
        var hardLinks: [Int32: [Int32]] = [:]
        while let (folder, record, zone, depth, folderPath) = stack.popLast() {
            for child in tree.nodes[Int(folder)].children {
                let added = add(
                    child, parent: record, parentZone: zone, folderPath: folderPath, sequestered: sequestered,
                    state: &state, hardLinks: &hardLinks)
                guard tree.nodes[Int(child)].isDirectory else { continue }
                guard depth + 1 <= options.maxDepth else {
                    state.recorder.insert(.unreadable, at: added.record)
                    state.recorder.report(
                        ScanIssue(
                            path: added.path, reason: .tooDeep,
                            detail: "not listed: deeper than \(options.maxDepth) levels"))
                    continue
                }
                stack.append((child, added.record, added.zone, depth + 1, added.path))
            }
        }
        markHardLinks(hardLinks, &state)
        for issue in treeIssuesBelowRoot() + listing.refused { state.recorder.report(issue) }
        return (state.recorder, state.dataOrdinals)
    }

    private struct BuildState {
        var recorder: TreeRecorder
        var dataOrdinals: [Int32] = [-1]
        /// Each tree node's record, -1 for a node left out.
        var recordOfNode: [Int32]

        init(root: Int32, modified: Int64, nodes: Int, nameBytes: Int) {
            recorder = TreeRecorder(rootModified: modified, entries: nodes, nameBytes: nameBytes)
            dataOrdinals.reserveCapacity(nodes)
            recordOfNode = [Int32](repeating: -1, count: nodes)
            recordOfNode[Int(root)] = 0
        }
    }

    private func add(
        _ node: Int32, parent: Int32, parentZone: Zone, folderPath: [UInt8], sequestered: [Int32: ExclusionFlag],
        state: inout BuildState, hardLinks: inout [Int32: [Int32]]
    ) -> (record: Int32, zone: Zone, path: [UInt8]) {
        let (item, name) = (tree.nodes[Int(node)], tree.name(node))
        let member = listing.member(of: node)
        let type: EntryType = item.isDirectory ? .directory : member?.type ?? .unknown
        let zone = name.withUnsafeBufferPointer { parentZone.child(named: $0, isDirectory: type == .directory) }
        let path = joined(folderPath, name)
        var flags: EntryFlags = []
        if zone.systemManaged { flags.insert(.systemManaged) }
        let isSidecar: Bool
        switch member?.sidecar {
        case .flag?:
            isSidecar = true
            guard type == .file else { break }
            state.recorder.countEvidence(sidecars: 1)
            if !zone.transport { noteSidecar(name, in: item.parent, path: path, state: &state) }
        case .malformed(let why)?:
            isSidecar = true
            state.recorder.report(ScanIssue(path: path, reason: .malformedMetadata, detail: why))
        case .notSidecar?, nil: isSidecar = false
        }
        if zone.transport || isSidecar { flags.insert(.transportArtefact) }
        // A flagged sibling `._name` flags the entry, as the walk pairs them.
        let sibling = tree.child(item.parent, Array("._".utf8) + name)
        var ownFlag: ExclusionFlag = isFlaggedSidecar(sibling) ? .appleDouble : .none
        let wantsAttributes = !zone.excludedBySystem && !flags.contains(.transportArtefact)
        if wantsAttributes, let member {
            if member.attributeFlag != .none { ownFlag = member.attributeFlag }
            if member.transportedAttributes { state.recorder.countEvidence(entriesWithAttributes: 1) }
        }
        if ownFlag == .none, type == .directory, isFlaggedSidecar(tree.child(node, Array("._.".utf8))) {
            ownFlag = .appleDouble
        }
        if ownFlag == .none, type != .symlink, let flag = sequestered[node] { ownFlag = flag }
        if let why = member?.unreadable {
            flags.insert(.unreadable)
            state.recorder.report(ScanIssue(path: path, reason: .unreadable, detail: "content not inspected: \(why)"))
        }
        var apparent = member?.size ?? 0
        var dataOrdinal: Int32 = type == .file ? member?.ordinal ?? -1 : -1
        var kind = isSidecar ? .appleDouble : member?.kind ?? .unknown
        if let target = member?.hardLinkTarget {
            flags.insert(.hardLinked)
            if let targetNode = tree.node(at: target), let targetMember = listing.member(of: targetNode),
                targetMember.type == .file
            {
                apparent = targetMember.size
                kind = targetMember.kind
                dataOrdinal = targetMember.ordinal
                hardLinks[targetNode, default: []].append(node)
            } else {
                state.recorder.report(
                    ScanIssue(
                        path: path, reason: .unreadable,
                        detail: "hard link to an entry the archive does not hold as a file: size unknown"))
            }
        }
        if type == .directory { apparent = 0 }
        // A link's size is its target's length, as `lstat` gives it on APFS and ext4 alike.
        if type == .symlink { apparent = Int64(member?.symlinkTarget?.count ?? 0) }
        let allocated = type == .file ? (apparent + Self.blockSize - 1) / Self.blockSize * Self.blockSize : 0
        let record = state.recorder.append(
            parent: parent, name: name, type: type, zone: zone, flags: flags, ownFlag: ownFlag, apparent: apparent,
            allocated: allocated, modified: member?.modified ?? 0, kind: type == .file ? kind : .unknown)
        state.dataOrdinals.append(dataOrdinal)
        state.recordOfNode[Int(node)] = record
        if type == .symlink, let target = member?.symlinkTarget {
            state.recorder.setSymlinkTarget(target, of: record)
            if SymlinkCheck.escapes(target: target, directory: folderPath, rootPath: rootName) {
                state.recorder.insert(.escapesContainer, at: record)
            }
        }
        return (record, zone, path)
    }

    /// Whether `node` is an AppleDouble sidecar carrying a backup flag.
    private func isFlaggedSidecar(_ node: Int32?) -> Bool {
        guard let node, case .flag(let flag)? = listing.member(of: node)?.sidecar else { return false }
        return flag != .none
    }

    /// A `._name` whose `name` is not in the archive describes nothing (as on disk).
    private func noteSidecar(_ name: ArraySlice<UInt8>, in folder: Int32, path: [UInt8], state: inout BuildState) {
        let target = name.dropFirst(2)
        guard !target.elementsEqual(".".utf8), tree.child(folder, target) == nil else { return }
        state.recorder.report(
            ScanIssue(
                path: path, reason: .unpairedSidecar,
                detail:
                    "stale AppleDouble sidecar: its file is not in the archive, so any backup flag it carries applies to nothing"
            ))
    }

    /// `P/__MACOSX/R/._name` describes `P/R/name` wherever `__MACOSX/` sits (beside the package, as a Finder zip puts
    /// it, or inside the container); sidecars describing the container or what is in it count as evidence.
    private func sequesteredFlags(_ state: inout BuildState) -> [Int32: ExclusionFlag] {
        var flags: [Int32: ExclusionFlag] = [:]
        let rootPath = tree.path(root)
        for (path, flag) in listing.sequesteredSidecars {
            let components = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            guard let marker = components.firstIndex(where: { $0.elementsEqual("__MACOSX".utf8) }),
                let last = components.last,
                last.count > 2
            else { continue }
            let target = components[..<marker] + components[(marker + 1)..<(components.count - 1)] + [last.dropFirst(2)]
            let targetPath = Array(target.joined(separator: [UInt8(ascii: "/")]))
            let describesContainer =
                rootPath.isEmpty || targetPath == rootPath || targetPath.starts(with: rootPath + [UInt8(ascii: "/")])
            guard describesContainer else { continue }
            // Inside the container the walk counts the sidecar where it lies; outside it, here.
            let inside = !rootPath.isEmpty && path.starts(with: rootPath + [UInt8(ascii: "/")])
            if !inside && !rootPath.isEmpty { state.recorder.countEvidence(sidecars: 1) }
            guard flag != .none, let node = tree.node(at: targetPath), node != root else { continue }
            flags[node] = .appleDouble
        }
        return flags
    }

    /// The hard-link group's smallest path carries the bytes, as the walk counts one name per inode.
    private func markHardLinks(_ groups: [Int32: [Int32]], _ state: inout BuildState) {
        for (target, links) in groups {
            // Every node here is below the root: their paths from the archive's top sort as from the root.
            let nodes = ([target] + links).filter { state.recordOfNode[Int($0)] >= 0 }
            guard nodes.count > 1 else { continue }
            let ordered = nodes.sorted { tree.path($0).lexicographicallyPrecedes(tree.path($1)) }
                .map { state.recordOfNode[Int($0)] }
            for record in ordered { state.recorder.insert(.hardLinked, at: record) }
            for duplicate in ordered.dropFirst() { state.recorder.insert(.hardLinkDuplicate, at: duplicate) }
        }
    }

    /// The tree's own issues (names stored twice, conflicts) that concern the container, relative to its root.
    private func treeIssuesBelowRoot() -> [ScanIssue] {
        let rootPath = tree.path(root)
        return tree.issues.compactMap { issue in
            if rootPath.isEmpty { return issue }
            let prefix = rootPath + [UInt8(ascii: "/")]
            guard issue.path.starts(with: prefix) else { return nil }
            return ScanIssue(
                path: Array(issue.path.dropFirst(prefix.count)), reason: issue.reason, detail: issue.detail)
        }
    }
}
