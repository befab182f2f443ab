import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// An app bundle given with `--app-bundle`: its size and the Info.plist keys that matter to placement.
public struct AppBundleInfo: Sendable {
    public let path: String
    public let bundleIdentifier: String?
    public let size: SizeTotal
    /// Every top-level Info.plist key, verbatim but for secrets: a secret value (or a key that is a token) is shown
    /// by its shape (`<API key, 32 chars>`).
    public let infoPlist: PropertyListValue?
    public let fileSharingEnabled: Bool
    public let opensDocumentsInPlace: Bool
    /// Secrets shipped in Info.plist (`hardcoded-credential`); `infoPlist` shows each by its shape, never its value.
    public let secrets: [AppBundleSecret]

    public init(
        path: String, bundleIdentifier: String?, size: SizeTotal, infoPlist: PropertyListValue?,
        fileSharingEnabled: Bool, opensDocumentsInPlace: Bool, secrets: [AppBundleSecret] = []
    ) {
        (self.secrets, self.path, self.bundleIdentifier, self.size) = (secrets, path, bundleIdentifier, size)
        (self.infoPlist, self.fileSharingEnabled) = (infoPlist, fileSharingEnabled)
        self.opensDocumentsInPlace = opensDocumentsInPlace
    }
}

/// An App Group container given with `--app-group`.
public struct AppGroupInfo: Sendable {
    public let path: String
    public let identifier: String?
    public let size: SizeTotal
    /// The rule that gave the container to the app when Stocktake found it itself (`audit --simulator`):
    /// `entitlements`, `plug-in bundle` or `bundle-id prefix (longest installed app)`; nil when the user gave it.
    public let matchedBy: String?

    public init(path: String, identifier: String?, size: SizeTotal, matchedBy: String? = nil) {
        (self.path, self.identifier, self.size, self.matchedBy) = (path, identifier, size, matchedBy)
    }
}

/// LINE's app-size formula: bundle + (data container − Caches) + App Groups, in allocated bytes.
public struct AppSize: Sendable, Equatable {
    public let bundleBytes: Int64
    public let containerWithoutCachesBytes: Int64
    public let appGroupBytes: Int64
    public var totalBytes: Int64 { bundleBytes.saturatingAdd(containerWithoutCachesBytes).saturatingAdd(appGroupBytes) }
}

/// What the walk measured, before any rule ran: everything `report.json` holds up to and including its rows.
/// The audit writes the rows from it while the rules run on another thread.
public struct ReportDraft: Sendable {
    public let tool: ToolInfo
    public let generatedAt: Date
    public let container: ContainerDescription
    public let inventory: Inventory
    public let appBundle: AppBundleInfo?
    public let appGroups: [AppGroupInfo]
    /// Configured groups with their members, largest first.
    public let groups: [GroupResult]
    /// Configured budgets with what the container holds.
    public let budgets: [BudgetResult]
    /// What could not be read beside the walk (a companion's malformed Info.plist).
    public let companionIssues: [ScanIssue]
    /// The device backup that was audited (`audit BACKUP --app`) or gave the backup states (`--backup`).
    public let deviceBackup: DeviceBackupSummary?
    /// What the content checks read and left unread; nil when they did not run (`--no-content-checks`).
    public let contentCoverage: ContentCoverage?

    public init(
        tool: ToolInfo, generatedAt: Date, container: ContainerDescription, inventory: Inventory,
        appBundle: AppBundleInfo? = nil, appGroups: [AppGroupInfo] = [], groups: [GroupResult] = [],
        budgets: [BudgetResult] = [], companionIssues: [ScanIssue] = [], deviceBackup: DeviceBackupSummary? = nil,
        contentCoverage: ContentCoverage? = nil
    ) {
        (self.contentCoverage, self.companionIssues, self.generatedAt) = (contentCoverage, companionIssues, generatedAt)
        (self.deviceBackup, self.container, self.inventory, self.groups) = (deviceBackup, container, inventory, groups)
        (self.appBundle, self.appGroups, self.budgets, self.tool) = (appBundle, appGroups, budgets, tool)
    }

    /// The app size by LINE's formula, when the bundle was given.
    public var appSize: AppSize? {
        guard let appBundle else { return nil }
        let caches =
            inventory.index(ofPath: Array("Library/Caches".utf8))
            .flatMap { inventory.directoryTotals[$0]?.allocatedBytes } ?? 0
        return AppSize(
            bundleBytes: appBundle.size.allocatedBytes,
            containerWithoutCachesBytes: inventory.totals.onDisk.allocatedBytes - caches,
            appGroupBytes: appGroups.map(\.size.allocatedBytes).saturatingSum())
    }
}

/// What holding a draft to the policy decided.
public struct Judgement: Sendable {
    /// What the policy rules found (less what a baseline suppressed), sorted by path, rule and fingerprint.
    public let findings: [Finding]
    /// When a baseline was applied: how many findings it suppressed, and its entries nothing matched.
    public let baseline: BaselineSummary?
    /// What the rules' own reads could not read (file contents for duplicate detection).
    public let issues: [ScanIssue]

    public init(findings: [Finding] = [], baseline: BaselineSummary? = nil, issues: [ScanIssue] = []) {
        (self.findings, self.baseline, self.issues) = (findings, baseline, issues)
    }
}

/// The one document every writer renders, a draft and its judgement: schema version 1 (see Reports/report.schema.json).
public struct Report: Sendable {
    public static let schemaVersion = 1

    public let draft: ReportDraft
    public let judgement: Judgement

    public init(_ draft: ReportDraft, _ judgement: Judgement) { (self.draft, self.judgement) = (draft, judgement) }

    /// A report built whole (tests, tools): the draft's fields and the judgement's in one call.
    public init(
        tool: ToolInfo, generatedAt: Date, container: ContainerDescription, inventory: Inventory,
        appBundle: AppBundleInfo? = nil, appGroups: [AppGroupInfo] = [], findings: [Finding] = [],
        groups: [GroupResult] = [], budgets: [BudgetResult] = [], baseline: BaselineSummary? = nil,
        laterIssues: [ScanIssue] = [], deviceBackup: DeviceBackupSummary? = nil
    ) {
        self.init(
            ReportDraft(
                tool: tool, generatedAt: generatedAt, container: container, inventory: inventory, appBundle: appBundle,
                appGroups: appGroups, groups: groups, budgets: budgets, deviceBackup: deviceBackup),
            Judgement(findings: findings, baseline: baseline, issues: laterIssues))
    }

    public var tool: ToolInfo { draft.tool }
    public var generatedAt: Date { draft.generatedAt }
    public var container: ContainerDescription { draft.container }
    public var inventory: Inventory { draft.inventory }
    public var appBundle: AppBundleInfo? { draft.appBundle }
    public var appGroups: [AppGroupInfo] { draft.appGroups }
    public var groups: [GroupResult] { draft.groups }
    public var budgets: [BudgetResult] { draft.budgets }
    public var deviceBackup: DeviceBackupSummary? { draft.deviceBackup }
    public var contentCoverage: ContentCoverage? { draft.contentCoverage }
    public var appSize: AppSize? { draft.appSize }
    public var findings: [Finding] { judgement.findings }
    public var baseline: BaselineSummary? { judgement.baseline }
    /// What was read outside the walk and could not be: the companions', then the rules'.
    public var laterIssues: [ScanIssue] { draft.companionIssues + judgement.issues }
}

/// The outcome of applying a baseline.
public struct BaselineSummary: Sendable, Equatable {
    public let suppressed: Int
    public let stale: [Baseline.Entry]

    public init(suppressed: Int, stale: [Baseline.Entry]) { (self.suppressed, self.stale) = (suppressed, stale) }
}
