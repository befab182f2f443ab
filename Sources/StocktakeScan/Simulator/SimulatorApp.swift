/// An app installed on a simulator device, and the containers the device keeps for it.
public struct SimulatorApp: Sendable, Equatable {
    public let bundleIdentifier: String
    /// Part of the runtime (Apple's apps: only their data lives in the device), as `simctl listapps` says.
    public let isSystem: Bool
    /// `data/Containers/Data/Application/<UUID>`, when the app has run.
    public let dataContainer: String?
    /// `data/Containers/Bundle/Application/<UUID>/<Name>.app`, for user apps.
    public let appBundle: String?
    public let appGroups: [Companion]
    /// Data containers of the app's extensions (`Data/PluginKitPlugin`): widgets, share extensions.
    public let plugins: [Companion]
    public let groupMatch: GroupMatch
    /// On an iOS 7-era runtime: `data/Applications/<UUID>`, holding both the `.app` and its data (listed, not audited).
    public let legacyFolder: String?
    public let notes: [SetNote]

    public struct Companion: Sendable, Equatable {
        public let identifier: String
        public let path: String
        public let matchedBy: MatchRule
    }

    /// Why a companion container is the app's. Signed ids are matched exactly; only without them does a name
    /// decide, and then the longest installed app id that the name extends wins (as for device backups), so
    /// `com.example.chat.business`'s containers never go to `com.example.chat`.
    public enum MatchRule: String, Sendable, Equatable, CaseIterable {
        /// A group id in the entitlements of the app's or one of its extensions' executables.
        case entitlements = "entitlements"
        /// The bundle id of one of the `.appex` in the app's `PlugIns` or `Extensions`.
        case pluginBundle = "plug-in bundle"
        /// `<bundle id>.…` (extensions) or `group.<bundle id>[.…]` (groups), of the longest app id it extends.
        case bundleIdPrefix = "bundle-id prefix (longest installed app)"
    }

    public enum GroupMatch: String, Sendable, Equatable {
        /// The group ids the app's and its extensions' executables are signed with.
        case entitlements
        /// No executable had entitlements: groups named `group.<bundle id>[.…]`, of no longer installed app id.
        case name
    }

    func adding(notes more: [SetNote]) -> SimulatorApp {
        SimulatorApp(
            bundleIdentifier: bundleIdentifier, isSystem: isSystem, dataContainer: dataContainer, appBundle: appBundle,
            appGroups: appGroups, plugins: plugins, groupMatch: groupMatch, legacyFolder: legacyFolder,
            notes: more + notes)
    }
}
