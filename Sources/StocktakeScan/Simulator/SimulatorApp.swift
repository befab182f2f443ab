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
    /// How the App Groups were matched to the app.
    public let groupMatch: GroupMatch

    public struct Companion: Sendable, Equatable {
        public let identifier: String
        public let path: String
    }

    public enum GroupMatch: String, Sendable, Equatable {
        /// The group ids the app's and its extensions' executables are signed with.
        case entitlements
        /// No executable had entitlements: groups named `group.<bundle id>` or `group.<bundle id>.…`.
        case name
    }
}
