import Foundation
import StocktakeModel

/// A rule option's value from the configuration, with the line it came from for error messages.
public struct OptionValue: Sendable, Equatable {
    public let text: String
    public let line: Int?

    public init(_ text: String, line: Int? = nil) {
        self.text = text
        self.line = line
    }
}

/// The options given to one rule, by name; a rule reads the ones it knows and rejects the rest.
public struct RuleOptionValues: Sendable, Equatable {
    public let ruleID: String
    public let values: [String: OptionValue]
    public let file: String

    public init(ruleID: String, values: [String: OptionValue] = [:], file: String = "stocktake.yml") {
        self.ruleID = ruleID
        self.values = values
        self.file = file
    }

    /// A byte count: `4096`, `50MB`, `1.5 GB` (decimal, as Apple shows sizes), `64KiB`, `2MiB` (binary).
    public func bytes(_ name: String, default fallback: Int64) throws(ConfigurationError) -> Int64 {
        guard let value = values[name] else { return fallback }
        guard let bytes = ByteQuantity.parse(value.text) else {
            throw ConfigurationError(file: file, line: value.line, message: "\(ruleID).\(name): '\(value.text)' is not a size (use e.g. 4096, 50MB, 1.5GB, 64KiB)")
        }
        return bytes
    }

    /// A whole number (a count or seconds).
    public func integer(_ name: String, default fallback: Int64) throws(ConfigurationError) -> Int64 {
        guard let value = values[name] else { return fallback }
        guard let number = WholeNumber.parse(value.text) else {
            throw ConfigurationError(file: file, line: value.line, message: "\(ruleID).\(name): '\(value.text)' is not a whole number")
        }
        return number
    }

    /// Rejects option names the rule does not document (`RuleDescription.options` is the one list).
    public func checkKnown(_ description: RuleDescription) throws(ConfigurationError) {
        try checkKnown(description.options.map { $0.name })
    }

    /// Rejects option names not in `names`.
    public func checkKnown(_ names: [String]) throws(ConfigurationError) {
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where !names.contains(name) {
            throw .unknown("option of \(ruleID)", name, valid: names.isEmpty ? ["enabled", "severity"] : names, file: file, line: value.line)
        }
    }
}

/// A count written in a configuration: digits, `_` allowed as a separator (`10_000`), never negative.
public enum WholeNumber {
    public static func parse(_ text: String) -> Int64? {
        Int64(text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")).flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// Sizes written by people.
public enum ByteQuantity {
    /// The shortest exact text `parse` reads back: `50MB`, `4KiB`, else the plain number.
    public static func text(_ bytes: Int64) -> String {
        guard bytes > 0 else { return String(bytes) }
        for (unit, scale) in [("GB", Int64(1_000_000_000)), ("MB", 1_000_000), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KB", 1_000), ("KiB", 1 << 10)]
        where bytes % scale == 0 {
            return "\(bytes / scale)\(unit)"
        }
        return String(bytes)
    }

    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.replacingOccurrences(of: "_", with: "").trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard let number = Double(digits), number >= 0 else { return nil }
        let scale: Double
        switch unit {
        case "", "b", "bytes": scale = 1
        case "kb", "k": scale = 1e3
        case "mb", "m": scale = 1e6
        case "gb", "g": scale = 1e9
        case "tb", "t": scale = 1e12
        case "kib": scale = 1024
        case "mib": scale = 1024 * 1024
        case "gib": scale = 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = (number * scale).rounded()
        return bytes < 9.2e18 ? Int64(bytes) : nil
    }
}
