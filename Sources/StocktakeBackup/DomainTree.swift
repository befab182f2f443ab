import StocktakeModel

/// One domain's records as a tree of names, the one reading of `relativePath` everything uses, so all count the same
/// records. Paths no backup tool writes are left out and listed in `issues`. Linear in the paths' total length.
package struct DomainTree: Sendable {
    package struct Node: Sendable {
        /// The folder holding it; -1 for the domain root (node 0).
        package let parent: Int32
        package let name: [UInt8]
        /// Index in `records`; -1 for a folder the manifest leaves out, implied by the paths below it.
        package let record: Int32
        /// Components from the domain root: 0 for the root, 1 for what it holds.
        package let depth: Int32
    }

    /// In path order: a folder before what it holds, names in byte order. Node 0 is the domain root.
    package let nodes: [Node]
    /// The records kept, in path order; the root's (`relativePath` empty) first when the manifest has one.
    package let records: [ManifestRecord]
    package let issues: [ScanIssue]

    package init(_ rows: [ManifestRecord]) {
        var issues: [ScanIssue] = []
        var valid: [ManifestRecord] = []
        valid.reserveCapacity(rows.count)
        for record in rows {
            if let why = Self.refusal(record.relativePath) {
                let detail =
                    "device backup record left out: \(why); backup tools never write such a path, "
                    + "and nothing is read or written there"
                issues.append(ScanIssue(path: record.relativePath, reason: .unreadable, detail: detail))
            } else {
                valid.append(record)
            }
        }
        valid.sort { Self.precedes($0, $1) }
        var nodes = [Node(parent: -1, name: [], record: -1, depth: 0)]
        var records: [ManifestRecord] = []
        records.reserveCapacity(valid.count)
        // The current chain of nodes from the root: each with the end of its path in the record being placed.
        var chain: [Int32] = [0]
        var previous: ManifestRecord?
        /// Adds a node below the end of the chain and makes it the chain's new end.
        func descend(into name: ArraySlice<UInt8>, record: Int32) {
            nodes.append(
                Node(parent: chain[chain.count - 1], name: Array(name), record: record, depth: Int32(chain.count)))
            chain.append(Int32(nodes.count - 1))
        }
        for record in valid {
            let path = record.relativePath
            if let previous, previous.relativePath == path {
                let detail =
                    "stored more than once in Manifest.db: the row with fileID \(VisibleText.render(previous.fileID, as: .message)) counts, the one with \(VisibleText.render(record.fileID, as: .message)) is left out"
                issues.append(ScanIssue(path: path, reason: .malformedMetadata, detail: detail))
                continue
            }
            let components =
                path.isEmpty ? [] : path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            // Keep the part of the chain the previous path shares with this one (components compared in order).
            var shared = 0
            while shared < components.count && shared + 1 < chain.count
                && nodes[Int(chain[shared + 1])].name.elementsEqual(components[shared])
            {
                shared += 1
            }
            chain.removeSubrange((shared + 1)...)
            // Sorted, a path's folders come before it: only a repeat reaches a node that is already there.
            guard shared < components.count || components.isEmpty else { continue }
            if let file = chain.dropFirst().first(where: { index in
                let node = nodes[Int(index)]
                return node.record >= 0 && records[Int(node.record)].type != .directory
            }) {
                let above = VisibleText.render(PathText.display(Self.path(of: file, in: nodes)), as: .message)
                let detail = "device backup record left out: \(above) above it is a file in the manifest, not a folder"
                issues.append(ScanIssue(path: path, reason: .unreadable, detail: detail))
                previous = record
                continue
            }
            for component in components[shared...].dropLast() { descend(into: component, record: -1) }
            let index = Int32(records.count)
            records.append(record)
            if let name = components.last {
                descend(into: name, record: index)
            } else {
                nodes[0] = Node(parent: -1, name: [], record: index, depth: 0)
            }
            previous = record
        }
        (self.nodes, self.records, self.issues) = (nodes, records, issues)
    }

    package func path(_ node: Int32) -> [UInt8] { Self.path(of: node, in: nodes) }

    private static func path(of node: Int32, in nodes: [Node]) -> [UInt8] {
        Inventory.path(of: node, parent: { nodes[Int($0)].parent }, name: { nodes[Int($0)].name[...] })
    }

    /// Why a `relativePath` is not one a backup tool writes; nil when it is.
    static func refusal(_ path: [UInt8]) -> String? {
        guard !path.isEmpty else { return nil }
        if path.first == UInt8(ascii: "/") { return "its relativePath is absolute (starts with /)" }
        for component in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            if component.isEmpty { return "its relativePath has an empty component (a doubled or trailing /)" }
            if component.elementsEqual("..".utf8) {
                return "its relativePath holds `..`, which would climb out of the domain"
            }
            if component.elementsEqual(".".utf8) { return "its relativePath holds a `.` component" }
        }
        return nil
    }

    /// A folder before what it holds (`/` ranks below every byte, so `a/b` comes before `a!`); equal paths by fileID.
    private static func precedes(_ a: ManifestRecord, _ b: ManifestRecord) -> Bool {
        if a.relativePath == b.relativePath { return a.fileID.utf8.lexicographicallyPrecedes(b.fileID.utf8) }
        return a.relativePath.lexicographicallyPrecedes(b.relativePath) { rank($0) < rank($1) }
    }

    @inline(__always)
    private static func rank(_ byte: UInt8) -> Int { byte == UInt8(ascii: "/") ? -1 : Int(byte) }
}
