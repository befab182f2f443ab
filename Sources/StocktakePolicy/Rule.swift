import StocktakeModel

/// What rules look at: the inventory and the facts around it.
public struct PolicyContext: Sendable {
    public let inventory: Inventory
    /// Documents/ is visible to the user (`UIFileSharingEnabled` or `LSSupportsOpeningDocumentsInPlace` in the
    /// app bundle's Info.plist); nil when unknown (no `--app-bundle`).
    public let documentsExposed: Bool?

    public init(inventory: Inventory, documentsExposed: Bool?) {
        self.inventory = inventory
        self.documentsExposed = documentsExposed
    }
}

/// A policy rule: static metadata and one evaluate function. Rules never print, never touch the disk.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()
    func evaluate(_ context: PolicyContext) -> [RuleFinding]
}
