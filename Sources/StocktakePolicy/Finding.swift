import StocktakeModel

/// A policy finding (contract keys: rule, severity, path, message, fix, fingerprint).
public struct Finding: Sendable, Equatable {
    public let rule: String
    public let severity: Severity
    /// Path relative to the container root, `/`-separated (lossy display for names that are not UTF-8).
    public let path: String
    public let message: String
    public let fix: String
    /// Stable identity for baselines and diffs: rule, path and the rule's discriminator; never an absolute
    /// path, never a per-run hash.
    public let fingerprint: String
    /// The bytes concerned (allocated), when the rule measures them.
    public let bytes: Int64?

    public init(
        rule: String, severity: Severity, path: String, message: String, fix: String, fingerprint: String, bytes: Int64?
    ) {
        (self.rule, self.severity, self.path, self.message) = (rule, severity, path, message)
        (self.fix, self.fingerprint, self.bytes) = (fix, fingerprint, bytes)
    }
}

/// What a rule reports about one place, before the policy gives it a severity and a fingerprint.
public struct RuleFinding: Sendable, Equatable {
    /// The entry concerned (a file, or a folder for findings about a whole folder).
    public let index: Int32
    /// A path to report instead of the entry's, for places that are not entries (an issue about something
    /// that vanished); relative to the container root.
    public let path: [UInt8]?
    public let message: String
    /// Distinguishes several findings of one rule at one path (empty when there is one).
    public let discriminator: String
    public let bytes: Int64?
    /// A severity the rule itself chooses for this case (e.g. error when Documents is exposed); nil: the
    /// rule's configured severity.
    public let severity: Severity?

    public init(
        index: Int32, path: [UInt8]? = nil, message: String, discriminator: String = "", bytes: Int64? = nil,
        severity: Severity? = nil
    ) {
        (self.index, self.path, self.message, self.discriminator) = (index, path, message, discriminator)
        (self.bytes, self.severity) = (bytes, severity)
    }
}
