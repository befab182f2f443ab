import StocktakeModel
import StocktakePolicy

/// What every view of an audit opens with: whether the run passed its gate (`--fail-on`, budgets), the
/// finding counts, and the worst findings with their fixes. The page, `summary.md` and the terminal say the
/// same thing because they read it from here.
public struct ReportVerdict: Sendable {
    /// nil when no gate was set (`--fail-on never`).
    public let failed: Bool?
    /// "--fail-on error".
    public let gate: String
    /// Why it failed, or what it checked when it passed: "1 error at or above error".
    public let reason: String
    /// "1 error · 16 warnings", or "no findings".
    public let counts: String
    /// One finding per rule, most severe and most bytes at stake first: at most `worstShown`.
    public let worst: [Finding]

    public static let worstShown = 3

    public init(report: Report, failingAt threshold: Severity?, number: (Int) -> String = { "\($0)" }) {
        gate = "--fail-on \(threshold?.rawValue ?? "never")"
        let counts = report.findings.severityCounts(number: number)
        self.counts = counts.isEmpty ? "no findings" : counts.joined(separator: " · ")
        worst = FindingGroup.rank(report.findings).prefix(Self.worstShown).compactMap(\.findings.first)
        guard let threshold else {
            failed = nil
            reason = "nothing fails this run"
            return
        }
        if let failure = report.policyFailureReason(failingAt: threshold) {
            failed = true
            reason = failure
        } else {
            failed = false
            reason =
                "no finding at or above \(threshold.rawValue)" + (report.budgets.isEmpty ? "" : ", no budget exceeded")
        }
    }

    /// "Failed (--fail-on error): 1 error at or above error", the line the terminal opens with.
    public var line: String {
        let word = failed.map { $0 ? "Failed" : "Passed" } ?? "No gate"
        return "\(word) (\(gate)): \(reason); \(counts)"
    }
}
