import StocktakeModel

/// The archive's entries as a tree of names: folders the archive lists and folders its paths imply. A name
/// stored twice keeps its last copy (what extraction would leave), and the repeat is reported. Names are kept back
/// to back in one array and found by a hash of their bytes: a million arrays of their own, and a dictionary keyed
/// by them, took about 100 bytes a member.
struct ArchiveTree {
    struct Node {
        let nameStart: Int
        let nameLength: Int32
        let parent: Int32
        /// Index in the listing's members; -1 for a folder only implied by the paths below it.
        var member: Int32
        var isDirectory: Bool
        var children: [Int32] = []
    }

    /// Index 0: the archive root.
    private(set) var nodes: [Node] = [Node(nameStart: 0, nameLength: 0, parent: -1, member: -1, isDirectory: true)]
    private var names: [UInt8] = []
    /// Children found by (parent, name): an open-addressed table of node indices (-1: empty), at most half full, and
    /// each node's 32-bit hash of its key, seeded per run. Every probe compares parent and name bytes, so names whose
    /// hashes collide are told apart; a dictionary keyed by (parent, hash) took 40 bytes a member, this 12.
    private var slots = [Int32](repeating: -1, count: 1 << 10)
    private var keyHashes: [UInt32] = [0]
    private(set) var issues: [ScanIssue] = []
    /// The folder (its path as stored, and its node) the last member went into.
    private var lastFolder: (path: [UInt8], node: Int32)?

    mutating func insert(_ member: ArchiveMember, path: [UInt8], at index: Int32) {
        // Members come grouped by folder: one in the folder of the member before skips the walk from the root.
        if let last = lastFolder, path.count > last.path.count + 1, path[last.path.count] == UInt8(ascii: "/"),
            path.starts(with: last.path), !path[(last.path.count + 1)...].contains(UInt8(ascii: "/"))
        {
            place(member, path: path, named: path[(last.path.count + 1)...], in: last.node, at: index)
            return
        }
        let components = path.split(separator: UInt8(ascii: "/"))
        var parent: Int32 = 0
        for component in components.dropLast() {
            if let existing = child(parent, component) {
                guard nodes[Int(existing)].isDirectory else {
                    issues.append(
                        ScanIssue(
                            path: path, reason: .unreadable,
                            detail: "archive entry left out: a folder above it is stored as a file"))
                    return
                }
                parent = existing
            } else {
                parent = add(component, parent: parent, member: -1, isDirectory: true)
            }
        }
        guard let name = components.last else { return }
        place(member, path: path, named: name, in: parent, at: index)
        // A folder that holds a node stays a folder (a file replacing it is refused), so it can be remembered.
        if let slash = path.lastIndex(of: UInt8(ascii: "/")), !nodes[Int(parent)].children.isEmpty {
            lastFolder = (Array(path[..<slash]), parent)
        }
    }

    /// Adds the member as `name` in folder `parent`, or makes it the node already there.
    private mutating func place(
        _ member: ArchiveMember, path: [UInt8], named name: ArraySlice<UInt8>, in parent: Int32, at index: Int32
    ) {
        let isDirectory = member.type == .directory
        guard let existing = child(parent, name) else {
            add(name, parent: parent, member: index, isDirectory: isDirectory)
            return
        }
        let node = nodes[Int(existing)]
        if node.isDirectory && !node.children.isEmpty && !isDirectory {
            issues.append(
                ScanIssue(
                    path: path, reason: .unreadable,
                    detail: "archive entry left out: a folder of the same name holds other entries"))
            return
        }
        if node.member >= 0 && !(node.isDirectory && isDirectory) {
            issues.append(
                ScanIssue(
                    path: path, reason: .malformedMetadata,
                    detail: "stored more than once in the archive: the last copy counts, as extraction would leave it"))
        }
        nodes[Int(existing)].member = index
        nodes[Int(existing)].isDirectory = isDirectory
    }

    @discardableResult
    private mutating func add(_ name: ArraySlice<UInt8>, parent: Int32, member: Int32, isDirectory: Bool) -> Int32 {
        let index = Int32(nodes.count)
        nodes.append(
            Node(
                nameStart: names.count, nameLength: Int32(name.count), parent: parent, member: member,
                isDirectory: isDirectory))
        names.append(contentsOf: name)
        nodes[Int(parent)].children.append(index)
        keyHashes.append(Self.hash(parent, name))
        if nodes.count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            for node in 1..<index { place(node) }
        }
        place(index)
        return index
    }

    /// Puts a node in the first free slot of its probe sequence.
    private mutating func place(_ node: Int32) {
        var slot = firstSlot(keyHashes[Int(node)])
        while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = node
    }

    /// The hash's top bits: the table's size is a power of two.
    private func firstSlot(_ hash: UInt32) -> Int { Int((UInt64(hash) * UInt64(slots.count)) >> 32) }

    private static func hash(_ parent: Int32, _ name: ArraySlice<UInt8>) -> UInt32 {
        name.withUnsafeBytes { bytes in
            var hasher = Hasher()
            hasher.combine(parent)
            hasher.combine(bytes: bytes)
            return UInt32(truncatingIfNeeded: hasher.finalize())
        }
    }

    /// All names' bytes: no more than the inventory of any part of the tree needs.
    var nameBytes: Int { names.count }

    func name(_ node: Int32) -> ArraySlice<UInt8> {
        let node = nodes[Int(node)]
        return names[node.nameStart..<node.nameStart + Int(node.nameLength)]
    }

    func child(_ parent: Int32, _ name: [UInt8]) -> Int32? { child(parent, name[...]) }

    func child(_ parent: Int32, _ name: ArraySlice<UInt8>) -> Int32? {
        let hash = Self.hash(parent, name)
        var slot = firstSlot(hash)
        while case let node = slots[slot], node >= 0 {
            let sameKey = keyHashes[Int(node)] == hash && nodes[Int(node)].parent == parent
            if sameKey && self.name(node).elementsEqual(name) { return node }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// The node at a `/`-separated path below `start`, if every step exists (and with `foldersOnly`, is a folder).
    func node(at path: some Collection<UInt8>, from start: Int32 = 0, foldersOnly: Bool = false) -> Int32? {
        var current = start
        for component in path.split(separator: UInt8(ascii: "/")) {
            guard let next = child(current, Array(component)), !foldersOnly || nodes[Int(next)].isDirectory else {
                return nil
            }
            current = next
        }
        return current
    }

    func path(_ index: Int32) -> [UInt8] {
        Inventory.path(of: index, parent: { nodes[Int($0)].parent }, name: { name($0) })
    }
}
