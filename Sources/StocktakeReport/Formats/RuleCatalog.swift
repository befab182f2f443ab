import StocktakeModel
import StocktakePolicy

/// The rules a CI format lists: every built-in rule in id order, then any rule id that only the findings
/// name (a newer or custom rule), so each finding has a rule to point at.
struct RuleCatalog {
    struct Entry {
        let id: String
        let title: String
        let rationale: String
        let source: String
        let defaultSeverity: Severity
        let fix: String
        /// OWASP MASTG/MASWE identifiers (SARIF `properties.tags`).
        var references: [String] = []
    }

    let entries: [Entry]
    private let positions: [String: Int]

    init(findings: [Finding], registry: [any Rule.Type] = RuleRegistry.all) {
        var entries = registry.map { rule in
            let description = rule.description
            return Entry(
                id: description.id, title: description.title, rationale: description.rationale,
                source: description.source,
                defaultSeverity: description.defaultSeverity, fix: description.fix, references: description.references)
        }
        var known = Set(entries.map(\.id))
        let unlisted = findings.filter { !known.contains($0.rule) }.sorted { $0.rule < $1.rule }
        for finding in unlisted where known.insert(finding.rule).inserted {
            entries.append(
                Entry(
                    id: finding.rule, title: finding.rule,
                    rationale: "A rule this version of Stocktake does not describe.",
                    source: "", defaultSeverity: finding.severity, fix: finding.fix))
        }
        self.entries = entries
        self.positions = Dictionary(entries.enumerated().map { ($0.element.id, $0.offset) }) { first, _ in first }
    }

    func index(of id: String) -> Int? { positions[id] }
}
