import StocktakeModel
import StocktakePolicy

/// The rules a CI format lists: every built-in rule in id order, then any rule id that only the findings
/// name (a newer or custom rule), so each finding has a rule to point at.
struct RuleCatalog {
    let entries: [RuleDescription]
    private let positions: [String: Int]

    init(findings: [Finding], registry: [any Rule.Type] = RuleRegistry.all) {
        var entries = registry.map { $0.description }
        var known = Set(entries.map(\.id))
        let unlisted = findings.filter { !known.contains($0.rule) }.sorted { $0.rule < $1.rule }
        for finding in unlisted where known.insert(finding.rule).inserted {
            entries.append(
                RuleDescription(
                    id: finding.rule, title: finding.rule, finds: "",
                    rationale: "A rule this version of Stocktake does not describe.", source: "",
                    defaultSeverity: finding.severity, fix: finding.fix, examples: []))
        }
        self.entries = entries
        self.positions = Dictionary(entries.enumerated().map { ($0.element.id, $0.offset) }) { first, _ in first }
    }

    func index(of id: String) -> Int? { positions[id] }
}
