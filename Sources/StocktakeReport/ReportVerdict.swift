import StocktakeModel
import StocktakePolicy

/// What can fail an audit (exit 2): the `--fail-on` threshold (budgets fail with it), and required content coverage.
public struct AuditGates: Sendable, Equatable {
    /// nil for `--fail-on never`.
    public var failOn: Severity?
    /// The setting that requires every file's content read (`--require-content-coverage` or
    /// `contentCoverage: required`), named as the verdict names the gate; nil when not required.
    public var contentCoverage: String?

    public init(failOn: Severity? = .error, contentCoverage: String? = nil) {
        (self.failOn, self.contentCoverage) = (failOn, contentCoverage)
    }
}

/// What every view of an audit opens with: whether the run passed its gates, the finding counts, and the worst findings
/// with their fixes. The page, the terminal and the exit status say the same thing because they read it from here.
public struct ReportVerdict: Sendable {
    /// A gate that failed: "--fail-on error" and why, "1 error at or above error".
    public struct Failure: Sendable, Equatable {
        public let gate: String
        public let reason: String
    }

    /// nil when no gate was set (`--fail-on never`, content coverage not required).
    public let failed: Bool?
    /// The gates that failed, or the ones checked when none did: ["--fail-on error"].
    public let gates: [String]
    /// Why it failed, or what it checked when it passed: "1 error at or above error".
    public let reason: String
    public let failures: [Failure]
    /// "1 error · 16 warnings", or "no findings".
    public let counts: String
    /// One finding per rule, most severe and most bytes at stake first: at most `worstShown`.
    public let worst: [Finding]

    public static let worstShown = 3

    public init(report: Report, gates settings: AuditGates, number: (Int) -> String = { "\($0)" }) {
        let counts = report.findings.severityCounts(number: number)
        self.counts = counts.isEmpty ? "no findings" : counts.joined(separator: " · ")
        worst = FindingGroup.rank(report.findings).prefix(Self.worstShown).compactMap(\.findings.first)
        var failures: [Failure] = []
        var checked: [String] = []
        var passes: [String] = []
        if let threshold = settings.failOn {
            let gate = "--fail-on \(threshold.rawValue)"
            checked.append(gate)
            let failing = report.findings.filter { $0.severity >= threshold }
            if !failing.isEmpty {
                let reason = failing.severityCounts().joined(separator: ", ") + " at or above \(threshold.rawValue)"
                failures.append(Failure(gate: gate, reason: reason))
            }
            passes.append("no finding at or above \(threshold.rawValue)")
            let exceeded = report.budgets.filter(\.exceeded).count
            if exceeded > 0 {
                failures.append(Failure(gate: "budgets", reason: Plural.count(exceeded, "budget") + " exceeded"))
            }
            if !report.budgets.isEmpty { passes.append("no budget exceeded") }
        }
        if let gate = settings.contentCoverage {
            checked.append(gate)
            if let unread = report.unreadContent {
                failures.append(Failure(gate: gate, reason: "content coverage is required: " + unread))
            }
            passes.append("every file's content read")
        }
        self.failures = failures
        failed = checked.isEmpty ? nil : !failures.isEmpty
        if failures.isEmpty {
            self.gates = checked.isEmpty ? ["--fail-on never"] : checked
            reason = checked.isEmpty ? "nothing fails this run" : passes.joined(separator: ", ")
        } else {
            self.gates = failures.map(\.gate)
            reason = failures.map(\.reason).joined(separator: "; ")
        }
    }

    /// "Failed (--fail-on error): 1 error at or above error", the line the terminal opens with.
    public var line: String {
        let word = failed.map { $0 ? "Failed" : "Passed" } ?? "No gate"
        return "\(word) (\(gates.joined(separator: ", "))): \(reason); \(counts)"
    }
}

extension Report {
    /// What the content checks did not read, with the first few paths; nil when they read everything (or did not run).
    public var unreadContent: String? {
        guard let summary = contentCoverage?.unreadSummary else { return nil }
        let paths = laterIssues.filter { $0.reason == .contentNotRead && !$0.path.isEmpty }.map {
            PathText.display($0.path)
        }
        let shown = paths.prefix(3).joined(separator: ", ")
        return summary + (shown.isEmpty ? "" : ": " + shown + (paths.count > 3 ? ", …" : ""))
    }
}
