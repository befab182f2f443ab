import StocktakeModel

/// Findings of one rule, for views that must stay readable at thousands of findings: the terminal summary,
/// `summary.md` and the HTML report all show the same groups in the same order.
public struct FindingGroup: Sendable, Equatable {
    public let rule: String
    /// The most severe finding's severity.
    public let severity: Severity
    /// Most bytes at stake first, then most severe, then the report's order (path, rule, fingerprint).
    public let findings: [Finding]
    /// The bytes concerned, summed: what fixing every finding would save or take out of the backup. A finding
    /// inside another of the same rule (a folder and a folder within it), or at the same path, counts once.
    public let bytes: Int64
    /// The fix, when every finding of the group shares it (rules give one fix per rule; a few vary it).
    public let sharedFix: String?

    /// Groups by rule, most severe first, then most bytes at stake, then rule id.
    public static func rank(_ findings: [Finding]) -> [FindingGroup] {
        var byRule: [String: [(offset: Int, finding: Finding)]] = [:]
        for (offset, finding) in findings.enumerated() { byRule[finding.rule, default: []].append((offset, finding)) }
        let sortKey = { (member: (offset: Int, finding: Finding)) in
            (member.finding.bytes ?? 0, member.finding.severity, -member.offset)
        }
        let groups = byRule.map { rule, members in
            let ranked = members.sorted { sortKey($0) > sortKey($1) }.map(\.finding)
            let fixes = Set(ranked.map(\.fix))
            return FindingGroup(
                rule: rule, severity: ranked.map(\.severity).max() ?? .note, findings: ranked,
                bytes: outermostBytes(ranked), sharedFix: fixes.count == 1 ? fixes.first : nil)
        }
        return groups.sorted { ($0.severity, $0.bytes, $1.rule) > ($1.severity, $1.bytes, $0.rule) }
    }

    /// The sum over findings that no other finding of the group contains. Sorted by path components, a
    /// folder's descendants follow it directly, so one "current outer path" finds them.
    private static func outermostBytes(_ findings: [Finding]) -> Int64 {
        let sorted = findings.map { ($0.path.split(separator: "/", omittingEmptySubsequences: false), $0.bytes ?? 0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }
        var total: Int64 = 0
        var outer: [Substring]?
        for (components, bytes) in sorted {
            if let outer, components.count >= outer.count, components.starts(with: outer) { continue }
            outer = components
            total = total.saturatingAdd(bytes)
        }
        return total
    }
}
