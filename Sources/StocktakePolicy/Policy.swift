import StocktakeModel

/// The resolved rule set: which rules run and at which severity. Evaluates them into sorted findings.
public struct Policy: Sendable {
    public let rules: [any Rule.Type]
    public let severities: [String: Severity]

    /// Every registered rule at its default severity.
    public init(rules: [any Rule.Type] = RuleRegistry.all, severities: [String: Severity] = [:]) {
        self.rules = rules
        self.severities = severities
    }

    public func evaluate(_ context: PolicyContext) -> [Finding] {
        var findings: [Finding] = []
        for rule in rules {
            let description = rule.description
            let configured = severities[description.id] ?? description.defaultSeverity
            for raw in rule.init().evaluate(context) {
                let path = PathText.display(raw.path ?? context.inventory.path(raw.index))
                findings.append(Finding(
                    rule: description.id, severity: raw.severity ?? configured, path: path, message: raw.message,
                    fix: description.fix,
                    fingerprint: Fingerprint.make(rule: description.id, path: path, discriminator: raw.discriminator),
                    bytes: raw.bytes))
            }
        }
        return findings.sorted { a, b in
            if a.path != b.path { return a.path.utf8.lexicographicallyPrecedes(b.path.utf8) }
            return (a.rule, a.fingerprint) < (b.rule, b.fingerprint)
        }
    }
}

/// Fingerprints: the SHA-256 of "rule\npath\ndiscriminator", in hex. Same inputs, same fingerprint, on every
/// machine and run; the path is relative to the container root.
public enum Fingerprint {
    public static func make(rule: String, path: String, discriminator: String) -> String {
        SHA256.hexDigest(Array((rule + "\n" + path + "\n" + discriminator).utf8))
    }
}
