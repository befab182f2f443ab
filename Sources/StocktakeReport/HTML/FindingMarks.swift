import StocktakeModel
import StocktakePolicy

/// For each entry, the findings about it (not those beneath: outlines mark where a finding is): how many, and the
/// worst severity. Findings carry paths, so each is resolved down the tree from the root, through a name table for
/// folders with many children (a flat folder of a million files is looked up by hash, not scanned once per finding).
struct FindingMarks {
    struct Mark {
        var severity: Severity
        var count: Int
    }

    private var marks: [Int32: Mark] = [:]

    init(findings: [Finding], inventory: Inventory) {
        var resolver = PathResolver(inventory: inventory)
        for finding in findings {
            guard let node = resolver.index(of: Array(finding.path.utf8)) else { continue }
            marks[node, default: Mark(severity: finding.severity, count: 0)].count += 1
            marks[node]!.severity = max(marks[node]!.severity, finding.severity)
        }
    }

    func mark(_ index: Int32) -> Mark? { marks[index] }
}

/// Paths to entries, walking down from the root; a folder's children are looked up by name in a table made the
/// first time a path passes through a folder with more than a few children.
struct PathResolver {
    let inventory: Inventory
    private var tables: [Int32: [ByteKey: Int32]] = [:]
    private static let scanLimit = 32

    init(inventory: Inventory) {
        self.inventory = inventory
    }

    mutating func index(of path: [UInt8]) -> Int32? {
        guard !inventory.entries.isEmpty else { return nil }
        var current = inventory.root
        for component in path.split(separator: UInt8(ascii: "/")) {
            let children = inventory.children(current)
            if children.count <= Self.scanLimit {
                guard let next = children.first(where: { inventory.name($0).elementsEqual(component) }) else {
                    return nil
                }
                current = next
                continue
            }
            if tables[current] == nil {
                var table: [ByteKey: Int32] = [:]
                table.reserveCapacity(children.count)
                for child in children { table[ByteKey(inventory.name(child))] = child }
                tables[current] = table
            }
            guard let next = tables[current]?[ByteKey(component)] else { return nil }
            current = next
        }
        return current
    }
}
