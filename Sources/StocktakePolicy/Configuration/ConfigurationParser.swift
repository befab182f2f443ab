import Foundation
import StocktakeModel
import Yams

extension PolicyConfiguration {
    /// The top-level keys, for messages.
    static let keys = ["budgets", "contentChecks", "contentCoverage", "documentsVisible", "exclude", "groups", "rules"]

    /// A larger configuration file is refused (a real one is a few kilobytes).
    public static let maxBytes: Int64 = 1 << 20

    /// Reads and checks a configuration file: unknown keys, rule ids and bad values are errors naming the line.
    public static func load(path: String) throws(ConfigurationError) -> PolicyConfiguration {
        let bytes = try ConfigurationError.read(path, maxBytes: maxBytes, what: "the configuration file")
        return try parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> PolicyConfiguration {
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw ConfigurationError(file: file, line: nil, message: "not valid YAML: \(error)")
        }
        var configuration = PolicyConfiguration()
        guard let root else { return configuration }
        let reader = NodeReader(file: file)
        for (key, value) in try reader.mapping(root, "the configuration") {
            switch key.text {
            case "rules": configuration.rules = try reader.rules(value)
            case "exclude": configuration.exclude = try reader.strings(value, "exclude").map(Glob.init)
            case "documentsVisible": configuration.documentsVisible = try reader.bool(value, "documentsVisible")
            case "contentChecks": configuration.contentChecks = try reader.bool(value, "contentChecks")
            case "contentCoverage":
                configuration.contentCoverage = try reader.choice(value, "contentCoverage", "value of contentCoverage")
            case "budgets": configuration.budgets = try reader.budgets(value)
            case "groups": configuration.groups = try reader.groups(value)
            default: throw .unknown("key", key.text, valid: keys, file: file, line: key.line)
            }
        }
        for group in configuration.budgets.groups.keys.sorted()
        where !configuration.groups.contains(where: { $0.name == group }) {
            throw ConfigurationError(
                file: file, line: nil, message: "budgets.groups.\(group): no group of that name under groups")
        }
        return configuration
    }
}

/// Walks Yams nodes with line numbers for every error.
private struct NodeReader {
    let file: String

    typealias Key = (text: String, line: Int?)

    func line(_ node: Node) -> Int? { node.mark.map { $0.line } }

    func mapping(_ node: Node, _ what: String) throws(ConfigurationError) -> [(Key, Node)] {
        guard case .mapping(let mapping) = node else {
            throw ConfigurationError(
                file: file, line: line(node), message: "\(what) must be a mapping of keys to values")
        }
        return mapping.map { ((text: $0.key.string ?? "", line: line($0.key)), $0.value) }
    }

    func scalar(_ node: Node, _ what: String) throws(ConfigurationError) -> String {
        guard case .scalar(let scalar) = node else {
            throw ConfigurationError(file: file, line: line(node), message: "\(what) must be a single value")
        }
        return scalar.string
    }

    func bool(_ node: Node, _ what: String) throws(ConfigurationError) -> Bool {
        guard let value = node.bool else {
            throw ConfigurationError(file: file, line: line(node), message: "\(what) must be true or false")
        }
        return value
    }

    func strings(_ node: Node, _ what: String) throws(ConfigurationError) -> [String] {
        guard case .sequence(let sequence) = node else {
            throw ConfigurationError(file: file, line: line(node), message: "\(what) must be a list")
        }
        return try sequence.map { item throws(ConfigurationError) in try scalar(item, what + " entries") }
    }

    /// A single value `parse` understands; otherwise an error saying what it `is not`.
    func value<T>(_ node: Node, _ what: String, _ parse: (String) -> T?, isNot: String) throws(ConfigurationError) -> T
    {
        let text = try scalar(node, what)
        guard let value = parse(text) else {
            throw ConfigurationError(file: file, line: line(node), message: "\(what): '\(text)' \(isNot)")
        }
        return value
    }

    /// One of `T`'s raw values; otherwise an error naming the nearest (`unknown` says what the value is).
    func choice<T: CaseIterable & RawRepresentable<String>>(_ node: Node, _ what: String, _ unknown: String)
        throws(ConfigurationError) -> T
    {
        try choice((text: scalar(node, what), line: line(node)), unknown)
    }

    func choice<T: CaseIterable & RawRepresentable<String>>(_ key: Key, _ unknown: String) throws(ConfigurationError)
        -> T
    {
        guard let value = T(rawValue: key.text) else {
            throw .unknown(unknown, key.text, valid: T.allCases.map(\.rawValue), file: file, line: key.line)
        }
        return value
    }

    func bytes(_ node: Node, _ what: String) throws(ConfigurationError) -> Int64 {
        try value(node, what, ByteQuantity.parse, isNot: "is not a size (use e.g. 4096, 50MB, 1.5GB)")
    }

    func budgetLimit(_ node: Node, _ what: String) throws(ConfigurationError) -> BudgetLimit {
        try value(node, what, BudgetLimit.parse, isNot: "is neither a size (200MB) nor a file count (5000 files)")
    }

    func rules(_ node: Node) throws(ConfigurationError) -> [String: RuleSettings] {
        let ids = RuleRegistry.all.map { $0.description.id }
        var rules: [String: RuleSettings] = [:]
        for (key, value) in try mapping(node, "rules") {
            guard ids.contains(key.text) else {
                throw .unknown("rule id", key.text, valid: ids, file: file, line: key.line)
            }
            var options: [String: OptionValue] = [:]
            var enabled = true
            var severity: Severity?
            for (option, optionValue) in try mapping(value, "rules.\(key.text)") {
                switch option.text {
                case "enabled": enabled = try bool(optionValue, "rules.\(key.text).enabled")
                case "severity": severity = try choice(optionValue, "rules.\(key.text).severity", "severity")
                default:
                    options[option.text] = OptionValue(
                        try scalar(optionValue, "rules.\(key.text).\(option.text)"), line: option.line)
                }
            }
            rules[key.text] = RuleSettings(
                enabled: enabled, severity: severity,
                options: RuleOptionValues(ruleID: key.text, values: options, file: file))
        }
        return rules
    }

    func budgets(_ node: Node) throws(ConfigurationError) -> Budgets {
        var budgets = Budgets()
        for (key, value) in try mapping(node, "budgets") {
            switch key.text {
            case "total": budgets.total = try bytes(value, "budgets.total")
            case "documentsAndData": budgets.documentsAndData = try bytes(value, "budgets.documentsAndData")
            case "files":
                budgets.files = try self.value(
                    value, "budgets.files", WholeNumber.parse, isNot: "is not a whole number")
            case "locations":
                for (location, limit) in try mapping(value, "budgets.locations") {
                    let id: Location = try choice(location, "location")
                    budgets.locations[id] = try budgetLimit(limit, "budgets.locations.\(location.text)")
                }
            case "groups":
                for (group, limit) in try mapping(value, "budgets.groups") {
                    budgets.groups[group.text] = try budgetLimit(limit, "budgets.groups.\(group.text)")
                }
            default:
                throw .unknown(
                    "budget", key.text, valid: ["documentsAndData", "files", "groups", "locations", "total"],
                    file: file, line: key.line)
            }
        }
        return budgets
    }

    func groups(_ node: Node) throws(ConfigurationError) -> [GroupDefinition] {
        try mapping(node, "groups").map { key, value throws(ConfigurationError) in
            let pattern = try scalar(value, "groups.\(key.text)")
            guard pattern.components(separatedBy: "{id}").count == 2 else {
                throw ConfigurationError(
                    file: file, line: line(value),
                    message:
                        "groups.\(key.text): the pattern needs exactly one {id}, e.g. \"Library/Application Support/Chats/{id}/**\""
                )
            }
            return GroupDefinition(name: key.text, pattern: pattern)
        }
    }
}
