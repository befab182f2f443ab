/// How serious a finding is (contract values). Ordered: note < warning < error.
public enum Severity: String, CaseIterable, Sendable, Comparable {
    case note, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }
}
