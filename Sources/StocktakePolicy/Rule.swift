import StocktakeModel

/// What rules look at: the inventory and the facts around it.
public struct PolicyContext: Sendable {
    public let inventory: Inventory
    /// Documents/ is visible to the user (`UIFileSharingEnabled` or `LSSupportsOpeningDocumentsInPlace` in the
    /// app bundle's Info.plist); nil when unknown (no `--app-bundle`).
    public let documentsExposed: Bool?
    /// Files with identical content (found by the scanner's duplicate finder when the rule that needs
    /// them runs); empty when not computed.
    public let duplicates: [DuplicateSet]
    /// Configured budgets and groups (from `stocktake.yml`); empty when there is no configuration.
    public let budgets: Budgets
    public let groups: [GroupResult]
    /// When the export was made (`container.exportedAt`), when known.
    public let exportedAt: ExportTime?
    /// What the files' contents reveal (credentials, tokens, cookies), found by the content checks; empty when
    /// they did not run (`--no-content-checks`, an archive).
    public let sensitive: [SensitiveItem]
    /// What the content checks found in the app's App Group and extension containers (`--app-group`, a simulator's).
    public let companionSensitive: [CompanionSensitiveItem]
    /// Secrets shipped in the app bundle's Info.plist (`--app-bundle`).
    public let appBundleSecrets: [AppBundleSecret]

    public init(
        inventory: Inventory, documentsExposed: Bool?, duplicates: [DuplicateSet] = [], budgets: Budgets = Budgets(),
        groups: [GroupResult] = [], exportedAt: ExportTime? = nil, sensitive: [SensitiveItem] = [],
        companionSensitive: [CompanionSensitiveItem] = [], appBundleSecrets: [AppBundleSecret] = []
    ) {
        (self.companionSensitive, self.appBundleSecrets, self.budgets) = (companionSensitive, appBundleSecrets, budgets)
        (self.documentsExposed, self.exportedAt, self.duplicates) = (documentsExposed, exportedAt, duplicates)
        (self.sensitive, self.inventory, self.groups) = (sensitive, inventory, groups)
    }
}

/// Two or more entries (hard links of one inode excluded) whose contents are byte-for-byte identical.
public struct DuplicateSet: Sendable, Equatable {
    /// Entry indices, in path order.
    public let members: [Int32]
    /// Apparent size of each copy.
    public let size: Int64

    public init(members: [Int32], size: Int64) { (self.members, self.size) = (members, size) }
}

/// A policy rule: static metadata and one evaluate function. Rules never print, never touch the disk.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    /// The rule with its default options.
    init()
    /// The rule with the options given, whose names `configured` has checked; bad values throw.
    static func reading(_ options: RuleOptionValues) throws(ConfigurationError) -> Self
    func evaluate(_ context: PolicyContext) -> [RuleFinding]
}

extension Rule {
    /// Rules without options keep their defaults.
    public static func reading(_ options: RuleOptionValues) throws(ConfigurationError) -> Self { Self() }

    /// The rule with options from the configuration; unknown option names and bad values throw.
    public static func configured(_ options: RuleOptionValues) throws(ConfigurationError) -> Self {
        try options.checkKnown(description)
        return try reading(options)
    }
}
