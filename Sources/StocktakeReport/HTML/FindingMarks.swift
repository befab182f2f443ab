import StocktakeModel
import StocktakePolicy

/// For each entry, the findings about it (not those beneath: outlines mark where a finding is): how many, and the
/// worst severity. Findings carry paths, each resolved down the tree from the root.
struct FindingMarks {
    struct Mark {
        var severity: Severity
        var count: Int
    }

    private var marks: [Int32: Mark] = [:]

    init(findings: [Finding], inventory: Inventory) {
        for finding in findings {
            guard let node = inventory.index(ofPath: Array(finding.path.utf8)) else { continue }
            marks[node, default: Mark(severity: finding.severity, count: 0)].count += 1
            marks[node]!.severity = max(marks[node]!.severity, finding.severity)
        }
    }

    func mark(_ index: Int32) -> Mark? { marks[index] }
}
