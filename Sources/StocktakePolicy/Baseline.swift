import Foundation

/// Findings recorded by `--write-baseline` and suppressed by `--baseline`: known debt that should not fail
/// the pipeline, keyed by fingerprint (rule, path, discriminator), never by message text.
public struct Baseline: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let fingerprint: String
        public let rule: String
        public let path: String
    }

    public static let version = 1
    /// A larger baseline is refused: about 500,000 findings.
    public static let maxBytes: Int64 = 64 << 20
    public let entries: [Entry]

    public init(findings: [Finding]) {
        entries = findings.map { Entry(fingerprint: $0.fingerprint, rule: $0.rule, path: $0.path) }.sorted {
            ($0.path, $0.rule, $0.fingerprint) < ($1.path, $1.rule, $1.fingerprint)
        }
    }

    /// Splits findings into those still reported and those the baseline suppresses, and lists the
    /// baseline entries nothing matched any more (fixed, or moved).
    public func apply(to findings: [Finding]) -> (kept: [Finding], suppressed: [Finding], stale: [Entry]) {
        let known = Set(entries.map(\.fingerprint))
        let found = Set(findings.map(\.fingerprint))
        let kept = findings.filter { !known.contains($0.fingerprint) }
        let suppressed = findings.filter { known.contains($0.fingerprint) }
        return (kept, suppressed, entries.filter { !found.contains($0.fingerprint) })
    }

    /// JSON: `{"findings": [{"fingerprint", "path", "rule"}], "version": 1}`, sorted, one entry per line.
    public var json: String {
        let rows = entries.map { entry in
            "    {\"fingerprint\": \(Self.quote(entry.fingerprint)), \"path\": \(Self.quote(entry.path)), \"rule\": \(Self.quote(entry.rule))}"
        }
        return "{\n  \"findings\": [\n" + rows.joined(separator: ",\n") + (rows.isEmpty ? "" : "\n")
            + "  ],\n  \"version\": \(Self.version)\n}\n"
    }

    public static func load(path: String) throws(ConfigurationError) -> Baseline {
        try parse(Data(ConfigurationError.read(path, maxBytes: maxBytes, what: "the baseline")), file: path)
    }

    /// A baseline file's bytes; `file` names it in errors.
    static func parse(_ data: Data, file path: String) throws(ConfigurationError) -> Baseline {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["version"] as? Int == version, let rows = object["findings"] as? [[String: Any]]
        else {
            throw ConfigurationError(
                file: path, line: nil,
                message: "not a Stocktake baseline (version \(version)): write one with --write-baseline")
        }
        var entries: [Entry] = []
        for row in rows {
            guard let fingerprint = row["fingerprint"] as? String else {
                throw ConfigurationError(file: path, line: nil, message: "a baseline entry has no fingerprint")
            }
            entries.append(
                Entry(fingerprint: fingerprint, rule: row["rule"] as? String ?? "", path: row["path"] as? String ?? ""))
        }
        return Baseline(entries: entries)
    }

    private init(entries: [Entry]) { self.entries = entries }

    private static func quote(_ text: String) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]))
            ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
