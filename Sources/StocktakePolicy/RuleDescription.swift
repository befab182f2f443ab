import StocktakeModel

/// A rule's static metadata: what `stocktake rules ID` prints and what SARIF's rule catalog will carry.
public struct RuleDescription: Sendable {
    /// Stable, kebab-case (contract).
    public let id: String
    public let title: String
    /// What a finding is, in a line (the rule table of docs/policy.md is generated from these fields).
    public let finds: String
    /// Why the rule exists, citing Apple's guidance.
    public let rationale: String
    public let source: String
    public let defaultSeverity: Severity
    /// When a finding's severity departs from the default, in a few words (`error when backed up`); nil if never.
    public let severityNote: String?
    public let options: [RuleOption]
    public let fix: String
    /// A triggering and a clean case at least; they double as tests.
    public let examples: [RuleExample]
    /// Runs only when the configuration names it (for rules that cost far more than the walk).
    public let isOptIn: Bool
    /// Identifiers of the tests and weaknesses in OWASP's mobile guide the rule checks (`MASTG-TEST-0302`,
    /// `MASWE-0006`); SARIF carries them as the rule's tags.
    public let references: [String]

    public init(
        id: String, title: String, finds: String, rationale: String, source: String, defaultSeverity: Severity,
        severityNote: String? = nil, options: [RuleOption] = [], fix: String, examples: [RuleExample],
        isOptIn: Bool = false, references: [String] = []
    ) {
        (self.references, self.id, self.title, self.finds) = (references, id, title, finds)
        (self.rationale, self.source, self.defaultSeverity) = (rationale, source, defaultSeverity)
        (self.severityNote, self.options, self.fix, self.examples) = (severityNote, options, fix, examples)
        self.isOptIn = isOptIn
    }
}

/// One tunable of a rule, with its default.
public struct RuleOption: Sendable {
    public let name: String
    public let defaultValue: String
    public let meaning: String
}

/// A small container and how many findings the rule must report on it.
public struct RuleExample: Sendable {
    public let summary: String
    public let expectedFindings: Int
    public let context: @Sendable () -> PolicyContext

    /// An example from entries added to a builder, with the facts a rule reads beside them: `documentsExposed` as
    /// an Info.plist would say, the scan's `issues`, `budgets`, what the content checks found (`sensitive`: path,
    /// store, place, kind, length; `appBundleSecrets`) and sets of identical files, each named by its members'
    /// paths (as the scanner's duplicate finder reports them). Paths missing from the builder are left out.
    public init(
        _ summary: String, expectedFindings: Int, documentsExposed: Bool = false, issues: [ScanIssue] = [],
        budgets: Budgets = Budgets(), sensitive: [(String, SensitiveItem.Store, String, SensitiveItem.Kind, Int)] = [],
        appBundleSecrets: [AppBundleSecret] = [], duplicates: [[String]] = [],
        build: @escaping @Sendable (inout InventoryBuilder) -> Void
    ) {
        (self.summary, self.expectedFindings) = (summary, expectedFindings)
        context = {
            var builder = InventoryBuilder()
            build(&builder)
            let inventory = builder.build(issues: issues)
            let index = { (path: String) in inventory.index(ofPath: Array(path.utf8)) }
            let items = sensitive.compactMap { path, store, place, kind, length in
                index(path).map { SensitiveItem(entry: $0, store: store, place: place, kind: kind, length: length) }
            }
            let sets = duplicates.map { paths in
                let members = paths.compactMap(index)
                return DuplicateSet(
                    members: members, size: members.first.map { inventory.entries[Int($0)].apparentBytes } ?? 0)
            }
            return PolicyContext(
                inventory: inventory, documentsExposed: documentsExposed, duplicates: sets, budgets: budgets,
                sensitive: items, appBundleSecrets: appBundleSecrets)
        }
    }
}
