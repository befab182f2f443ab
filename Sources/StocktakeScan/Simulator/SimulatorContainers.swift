import StocktakeModel

/// The containers of one simulator device, each found by the bundle or group id in its
/// `.com.apple.mobile_container_manager.metadata.plist` (`MCMMetadataIdentifier`): the folder names are
/// random UUIDs that change on every install.
struct SimulatorContainers {
    /// `Bundle/Application`: bundle id → the container folder.
    let bundles: [String: String]
    /// `Data/Application`.
    let data: [String: String]
    /// `Shared/AppGroup`: group id → folder.
    let groups: [String: String]
    /// `Data/PluginKitPlugin`: extension bundle id → folder.
    let plugins: [String: String]

    static func read(_ device: SimulatorDevice) -> SimulatorContainers {
        let root = device.containersPath
        return SimulatorContainers(
            bundles: identified(in: root + "/Bundle/Application"), data: identified(in: root + "/Data/Application"),
            groups: identified(in: root + "/Shared/AppGroup"), plugins: identified(in: root + "/Data/PluginKitPlugin"))
    }

    /// Every app's bundle id: those with a bundle or a data container.
    var appIdentifiers: Set<String> { Set(bundles.keys).union(data.keys) }

    func apps() -> [SimulatorApp] {
        appIdentifiers.map(app).sorted { ($0.isSystem ? 1 : 0, $0.bundleIdentifier) < ($1.isSystem ? 1 : 0, $1.bundleIdentifier) }
    }

    /// One app and its containers; reads only its own bundle's executables.
    func app(_ identifier: String) -> SimulatorApp {
        let bundle = bundles[identifier].flatMap(Self.appFolder)
        let signed = bundle.map(InstalledBundle.read)
        let groupIds: Set<String>
        let match: SimulatorApp.GroupMatch
        if let signed, signed.hasEntitlements {
            groupIds = signed.appGroups
            match = .entitlements
        } else {
            // Apple's apps (their bundles live in the runtime) and unsigned builds: by the naming convention.
            groupIds = Set(groups.keys.filter { $0 == "group." + identifier || $0.hasPrefix("group." + identifier + ".") })
            match = .name
        }
        let extensionIds = signed?.extensionIdentifiers ?? []
        let pluginIds = plugins.keys.filter { extensionIds.contains($0) || $0.hasPrefix(identifier + ".") }
        return SimulatorApp(
            bundleIdentifier: identifier, isSystem: bundles[identifier] == nil, dataContainer: data[identifier], appBundle: bundle,
            appGroups: groupIds.compactMap { id in groups[id].map { SimulatorApp.Companion(identifier: id, path: $0) } }
                .sorted { $0.identifier < $1.identifier },
            plugins: pluginIds.sorted().map { SimulatorApp.Companion(identifier: $0, path: plugins[$0]!) },
            groupMatch: match)
    }

    /// Each UUID folder of a container kind whose metadata plist names it; folders without one (an install
    /// in progress) or with a malformed one are passed over. Two folders claiming one id: the first by name.
    private static func identified(in folder: String) -> [String: String] {
        guard let listing = try? DirectoryListing.read(folder, limit: 100_000) else { return [:] }
        var found: [String: String] = [:]
        for entry in listing.entries.sorted(by: { $0.name < $1.name }) where entry.kind == .directory {
            let container = folder + "/" + entry.name
            guard let metadata = try? PropertyListReader.read(
                      contentsOfFile: container + "/" + ContainerSource.containerMetadataFile, maxBytes: 1 << 20),
                  let identifier = metadata["MCMMetadataIdentifier"]?.stringValue, !identifier.isEmpty,
                  found[identifier] == nil
            else { continue }
            found[identifier] = container
        }
        return found
    }

    /// The one `.app` folder inside a bundle container.
    private static func appFolder(_ container: String) -> String? {
        guard let listing = try? DirectoryListing.read(container, limit: 1_000) else { return nil }
        return listing.entries.filter { $0.kind == .directory && $0.name.hasSuffix(".app") }
            .map(\.name).sorted().first.map { container + "/" + $0 }
    }
}

/// What an installed `.app` says about itself: the App Groups its executable and its extensions'
/// executables are entitled to, and its extensions' bundle ids.
struct InstalledBundle {
    let hasEntitlements: Bool
    let appGroups: Set<String>
    let extensionIdentifiers: Set<String>

    static func read(_ app: String) -> InstalledBundle {
        var entitled = false
        var groups: Set<String> = []
        var extensions: Set<String> = []
        let parts = [app] + ["PlugIns", "Extensions"].flatMap { folder in bundles(in: app + "/" + folder, suffix: ".appex") }
        for (index, part) in parts.enumerated() {
            let info = try? PropertyListReader.read(contentsOfFile: part + "/Info.plist", maxBytes: 1 << 20)
            if index > 0, let identifier = info?["CFBundleIdentifier"]?.stringValue { extensions.insert(identifier) }
            guard let entitlements = self.entitlements(of: part, executable: info?["CFBundleExecutable"]?.stringValue) else { continue }
            entitled = true
            for group in entitlements["com.apple.security.application-groups"]?.arrayValue ?? [] {
                if let id = group.stringValue { groups.insert(id) }
            }
        }
        return InstalledBundle(hasEntitlements: entitled, appGroups: groups, extensionIdentifiers: extensions)
    }

    /// The executable's signed entitlements, else the `.xcent` Xcode leaves beside it.
    private static func entitlements(of bundle: String, executable: String?) -> PropertyListValue? {
        if let executable, !executable.contains("/"), executable != "..",
           let value = try? MachOEntitlements.read(executable: bundle + "/" + executable) {
            return value
        }
        return try? PropertyListReader.read(contentsOfFile: bundle + "/archived-expanded-entitlements.xcent", maxBytes: 1 << 20)
    }

    private static func bundles(in folder: String, suffix: String) -> [String] {
        guard let listing = try? DirectoryListing.read(folder, limit: 1_000) else { return [] }
        return listing.entries.filter { $0.kind == .directory && $0.name.hasSuffix(suffix) }.map { folder + "/" + $0.name }.sorted()
    }
}
