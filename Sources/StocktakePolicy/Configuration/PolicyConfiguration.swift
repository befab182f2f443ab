import Foundation
import StocktakeModel

/// What `stocktake.yml` says (see `DefaultConfiguration.text` for the documented keys).
public struct PolicyConfiguration: Sendable {
    public var rules: [String: RuleSettings] = [:]
    public var exclude: [Glob] = []
    /// Whether Documents is visible to users (overrides what `--app-bundle` says).
    public var documentsVisible: Bool?
    /// Whether file contents are read for credentials, tokens and cookies (`--no-content-checks` turns it off).
    public var contentChecks = true
    /// `required`: a content pass that left a file unread (a limit, a parse failure, a budget) fails the run (exit 2).
    public var contentCoverage = ContentCoverageRequirement.bestEffort
    public var budgets: Budgets = Budgets()
    /// Named path patterns with a `{id}` capture; their members are listed by size.
    public var groups: [GroupDefinition] = []

    public init() {}
}

/// `contentCoverage` in `stocktake.yml` (`--require-content-coverage` sets `required`).
public enum ContentCoverageRequirement: String, Sendable, CaseIterable {
    /// Files left unread are listed in the report's issues and coverage; the run does not fail for them.
    case bestEffort
    /// Files left unread fail the run.
    case required
}

public struct RuleSettings: Sendable, Equatable {
    public var enabled: Bool = true
    public var severity: Severity?
    public var options: RuleOptionValues
}

/// Limits that fail the run when exceeded (`budget-exceeded`).
public struct Budgets: Sendable, Equatable {
    /// Allocated bytes of the whole container (`du -s`).
    public var total: Int64?
    /// Files in the container (app data).
    public var files: Int64?
    /// Allocated bytes of app data outside Caches and tmp.
    public var documentsAndData: Int64?
    /// Per location id: allocated bytes or a file count.
    public var locations: [Location: BudgetLimit] = [:]
    /// Per member of a group: allocated bytes or a file count.
    public var groups: [String: BudgetLimit] = [:]

    public init() {}

    public var isEmpty: Bool {
        total == nil && files == nil && documentsAndData == nil && locations.isEmpty && groups.isEmpty
    }
}

/// A group such as `chats: "Library/Application Support/Chats/{id}/**"`.
public struct GroupDefinition: Sendable, Equatable {
    public let name: String
    public let pattern: String
}

/// A limit in allocated bytes (`200MB`) or in files (`5000 files`).
public enum BudgetLimit: Sendable, Equatable {
    case bytes(Int64)
    case files(Int64)

    /// `200MB`, `1.5GB`, `4096` (bytes) or `5000 files`.
    public static func parse(_ text: String) -> BudgetLimit? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for suffix in [" files", " file", "files"] where trimmed.lowercased().hasSuffix(suffix) {
            return WholeNumber.parse(String(trimmed.dropLast(suffix.count))).map(BudgetLimit.files)
        }
        return ByteQuantity.parse(trimmed).map(BudgetLimit.bytes)
    }
}
