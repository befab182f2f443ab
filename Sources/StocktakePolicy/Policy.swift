import StocktakeModel

/// The resolved rule set: which rules run, with which options, at which severity, and which paths are
/// never reported. Evaluates them into sorted findings.
public struct Policy: Sendable {
    public let rules: [any Rule]
    public let severities: [String: Severity]
    public let exclude: [Glob]

    /// Every registered rule that is not opt-in, with its defaults.
    public init() { self.init(rules: RuleRegistry.all.filter { !$0.description.isOptIn }.map { $0.init() }) }

    public init(rules: [any Rule], severities: [String: Severity] = [:], exclude: [Glob] = []) {
        (self.rules, self.severities, self.exclude) = (rules, severities, exclude)
    }

    /// The rules the configuration enables, configured with its options and severities.
    public init(configuration: PolicyConfiguration) throws(ConfigurationError) {
        var rules: [any Rule] = []
        var severities: [String: Severity] = [:]
        for type in RuleRegistry.all {
            let id = type.description.id
            guard let settings = configuration.rules[id] else {
                if !type.description.isOptIn { rules.append(type.init()) }
                continue
            }
            // Naming an opt-in rule in the configuration turns it on, unless it says `enabled: false`.
            guard settings.enabled else { continue }
            rules.append(try type.configured(settings.options))
            if let severity = settings.severity { severities[id] = severity }
        }
        self.init(rules: rules, severities: severities, exclude: configuration.exclude)
    }

    public func evaluate(_ context: PolicyContext) -> [Finding] {
        // The rules only read the inventory, so they run side by side: after the walk they are the longest path.
        let findings = SideBySide.values(rules.count) { number -> [Finding] in
            let description = type(of: rules[number]).description
            return rules[number].evaluate(context).compactMap { raw -> Finding? in
                let path = PathText.display(raw.path ?? context.inventory.path(raw.index))
                guard !exclude.contains(where: { $0.matches(path) }) else { return nil }
                // A rule may raise one case above its default (documents-hidden-data when Documents is
                // exposed); a configured severity is the user's word and applies to every case.
                let severity = severities[description.id] ?? raw.severity ?? description.defaultSeverity
                let fingerprint = Fingerprint.make(rule: description.id, path: path, discriminator: raw.discriminator)
                return Finding(
                    rule: description.id, severity: severity, path: path, message: raw.message, fix: description.fix,
                    fingerprint: fingerprint, bytes: raw.bytes)
            }
        }
        return findings.joined().sorted { a, b in
            if a.path != b.path { return a.path.utf8.lexicographicallyPrecedes(b.path.utf8) }
            return (a.rule, a.fingerprint) < (b.rule, b.fingerprint)
        }
    }
}

/// Fingerprints: the SHA-256 of "rule\npath\ndiscriminator", in hex. Same inputs, same fingerprint, on every
/// machine and run; the path is relative to the container root.
public enum Fingerprint {
    public static func make(rule: String, path: String, discriminator: String) -> String {
        Digests.sha256Hex(Array((rule + "\n" + path + "\n" + discriminator).utf8))
    }
}
