import StocktakeModel

/// What `stocktake.yml` says (see `DefaultConfiguration.text` for the documented keys).
public struct PolicyConfiguration: Sendable {
    /// Per rule: whether it runs, its severity, its options.
    public var rules: [String: RuleSettings] = [:]
    /// Paths never reported.
    public var exclude: [Glob] = []
    /// Whether Documents is visible to users (overrides what `--app-bundle` says).
    public var documentsVisible: Bool?
    public var budgets: Budgets = Budgets()
    /// Named path patterns with a `{id}` capture; their members are listed by size.
    public var groups: [GroupDefinition] = []

    public init() {}
}

public struct RuleSettings: Sendable, Equatable {
    public var enabled: Bool = true
    public var severity: Severity?
    public var options: RuleOptionValues

    public init(options: RuleOptionValues) { self.options = options }
}

/// Limits that fail the run when exceeded (`budget-exceeded`).
public struct Budgets: Sendable, Equatable {
    /// Allocated bytes of the whole container (`du -s`).
    public var total: Int64?
    /// Files in the container (app data).
    public var files: Int64?
    /// Allocated bytes of app data outside Caches and tmp.
    public var documentsAndData: Int64?
    /// Allocated bytes per location id.
    public var locations: [Location: Int64] = [:]
    /// Allocated bytes per member of a group.
    public var groups: [String: Int64] = [:]

    public init() {}

    public var isEmpty: Bool { total == nil && files == nil && documentsAndData == nil && locations.isEmpty && groups.isEmpty }
}

/// A group such as `chats: "Library/Application Support/Chats/{id}/**"`.
public struct GroupDefinition: Sendable, Equatable {
    public let name: String
    public let pattern: String

    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}
