import StocktakeModel
import StocktakePolicy

/// For each entry, the findings about it (not those beneath: outlines mark where a finding is): how many, and the
/// worst severity. Findings carry paths, so each is resolved down the tree from the root, through a name table made
/// once for each folder a path passes through (a flat folder of a million files is looked up by hash, not scanned
/// once per finding).
struct FindingMarks {
    struct Mark {
        var severity: Severity
        var count: Int
    }

    private var marks: [Int32: Mark] = [:]

    init(findings: [Finding], inventory: Inventory) {
        guard !inventory.entries.isEmpty else { return }
        var tables: [Int32: [ByteKey: Int32]] = [:]
        findings: for finding in findings {
            var node = inventory.root
            for component in Array(finding.path.utf8).split(separator: UInt8(ascii: "/")) {
                let table =
                    tables[node]
                    ?? Dictionary(inventory.children(node).map { (ByteKey(inventory.name($0)), $0) }) { first, _ in
                        first
                    }
                tables[node] = table
                guard let next = table[ByteKey(component)] else { continue findings }
                node = next
            }
            marks[node, default: Mark(severity: finding.severity, count: 0)].count += 1
            marks[node]!.severity = max(marks[node]!.severity, finding.severity)
        }
    }

    func mark(_ index: Int32) -> Mark? { marks[index] }
}
