import Foundation
import StocktakeModel

/// A rule option's value from the configuration, with the line it came from for error messages.
public struct OptionValue: Sendable, Equatable {
    public let text: String
    public let line: Int?

    public init(_ text: String, line: Int? = nil) { (self.text, self.line) = (text, line) }
}

/// The options given to one rule, by name; a rule reads the ones it knows and rejects the rest.
public struct RuleOptionValues: Sendable, Equatable {
    public let ruleID: String
    public let values: [String: OptionValue]
    public let file: String

    public init(ruleID: String, values: [String: OptionValue] = [:], file: String = "stocktake.yml") {
        (self.ruleID, self.values, self.file) = (ruleID, values, file)
    }

    /// A byte count: `4096`, `50MB`, `1.5 GB` (decimal, as Apple shows sizes), `64KiB`, `2MiB` (binary).
    public func bytes(_ name: String, default fallback: Int64) throws(ConfigurationError) -> Int64 {
        try parse(name, fallback, ByteQuantity.parse, "is not a size (use e.g. 4096, 50MB, 1.5GB, 64KiB)")
    }

    /// A whole number (a count or seconds).
    public func integer(_ name: String, default fallback: Int64) throws(ConfigurationError) -> Int64 {
        try parse(name, fallback, WholeNumber.parse, "is not a whole number")
    }

    private func parse(_ name: String, _ fallback: Int64, _ parse: (String) -> Int64?, _ problem: String)
        throws(ConfigurationError) -> Int64
    {
        guard let value = values[name] else { return fallback }
        guard let number = parse(value.text) else {
            throw ConfigurationError(
                file: file, line: value.line, message: "\(ruleID).\(name): '\(value.text)' \(problem)")
        }
        return number
    }

    /// Rejects option names the rule does not document (`RuleDescription.options` is the one list).
    public func checkKnown(_ description: RuleDescription) throws(ConfigurationError) {
        let names = description.options.map(\.name)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where !names.contains(name) {
            throw .unknown(
                "option of \(ruleID)", name, valid: names.isEmpty ? ["enabled", "severity"] : names, file: file,
                line: value.line)
        }
    }
}

/// A count written in a configuration: digits, `_` allowed as a separator (`10_000`), never negative.
public enum WholeNumber {
    public static func parse(_ text: String) -> Int64? {
        Int64(text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")).flatMap {
            $0 >= 0 ? $0 : nil
        }
    }
}
