import StocktakeModel

extension Sequence where Element == Finding {
    /// "2 errors", "1 warning", …: most severe first, severities with no finding left out unless
    /// `includingNone`. `number` writes the counts (grouped digits in HTML and Markdown).
    public func severityCounts(includingNone: Bool = false, number: (Int) -> String = { "\($0)" }) -> [String] {
        var counts: [Severity: Int] = [:]
        for finding in self { counts[finding.severity, default: 0] += 1 }
        return Severity.allCases.reversed().compactMap { severity in
            let count = counts[severity] ?? 0
            return count == 0 && !includingNone ? nil : Plural.count(count, severity.rawValue, number: number(count))
        }
    }

    /// Most severe first; within a severity, the order given (the report's: path, rule, fingerprint).
    public var bySeverity: [Finding] {
        enumerated().sorted { ($0.element.severity, $1.offset) > ($1.element.severity, $0.offset) }.map(\.element)
    }
}
