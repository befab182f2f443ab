/// An app installed on a simulator device, and the containers the device keeps for it.
public struct SimulatorApp: Sendable, Equatable {
    public let bundleIdentifier: String
    /// Installed by the user (its `.app` is in the device's `Bundle/Application`) or part of the runtime
    /// (Apple's apps: only their data lives in the device), as `simctl listapps` says `ApplicationType`.
    public let isSystem: Bool
    /// `data/Containers/Data/Application/<UUID>`, when the app has run.
    public let dataContainer: String?
    /// `data/Containers/Bundle/Application/<UUID>/<Name>.app`, for user apps.
    public let appBundle: String?
    public let appGroups: [Companion]
    /// Data containers of the app's extensions (`Data/PluginKitPlugin`): widgets, share extensions.
    public let plugins: [Companion]
    public let groupMatch: GroupMatch
    /// On a device of an iOS 7-era runtime: the app's `data/Applications/<UUID>` folder, which holds both its
    /// `.app` and its data (Documents, Library, tmp). Such an app is listed, not audited.
    public let legacyFolder: String?
    /// What was passed over while reading the app (links not followed, listings cut at their limit).
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
        /// `<bundle id>.…` (extensions) or `group.<bundle id>[.…]` (groups), the app being the longest installed
        /// app id the name extends.
        case bundleIdPrefix = "bundle-id prefix (longest installed app)"
    }

    public enum GroupMatch: String, Sendable, Equatable {
        /// The group ids the app's and its extensions' executables are signed with.
        case entitlements
        /// No executable had entitlements: groups named `group.<bundle id>` or `group.<bundle id>.…`, of no
        /// longer installed app id.
        case name
    }

    func adding(notes more: [SetNote]) -> SimulatorApp {
        SimulatorApp(
            bundleIdentifier: bundleIdentifier, isSystem: isSystem, dataContainer: dataContainer, appBundle: appBundle,
            appGroups: appGroups, plugins: plugins, groupMatch: groupMatch, legacyFolder: legacyFolder,
            notes: more + notes)
    }
}
