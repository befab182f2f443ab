import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists

/// The containers of one simulator device, each found by the id in its container-manager plist: the folder names
/// are random UUIDs that change on every install. Read without following any link (see `LinkGuard`).
struct SimulatorContainers {
    /// `Bundle/Application`: bundle id → the container folder.
    let bundles: [String: String]
    let data: [String: String]
    /// `Shared/AppGroup`: group id → folder.
    let groups: [String: String]
    /// `Data/PluginKitPlugin`: extension bundle id → folder.
    let plugins: [String: String]
    /// iOS 7-era runtimes: `data/Applications/<UUID>` holding `<Name>.app` and the app's data; bundle id → both.
    let legacy: [String: Legacy]
    let notes: [SetNote]

    struct Legacy {
        let data: String
        let bundle: String
    }

    /// Most container folders of one kind that are read; past it, the note says so.
    static let maxContainers = 1_000_000

    static func read(_ device: SimulatorDevice) -> SimulatorContainers {
        var guarded = LinkGuard()
        var kinds: [[String: String]] = [[:], [:], [:], [:]]
        var legacy: [String: Legacy] = [:]
        if let data = guarded.folder(device.path, "data") {
            if let root = guarded.folder(data, "Containers") {
                for (index, steps) in [
                    ["Bundle", "Application"], ["Data", "Application"], ["Shared", "AppGroup"],
                    ["Data", "PluginKitPlugin"],
                ].enumerated() {
                    guard let parent = guarded.folder(root, steps[0]), let folder = guarded.folder(parent, steps[1])
                    else { continue }
                    kinds[index] = byIdentifier(in: folder, &guarded) { container, guarded in
                        let metadata = guarded.plist(container, ContainerSource.containerMetadataFile)
                        return metadata?["MCMMetadataIdentifier"]?.stringValue.map { ($0, container) }
                    }
                }
            }
            // The old layout: each `<UUID>` folder with a `<Name>.app` whose Info.plist names the app.
            if let applications = guarded.folder(data, "Applications") {
                legacy = byIdentifier(in: applications, &guarded) { folder, guarded in
                    guard let app = appFolder(folder, &guarded),
                        let identifier = guarded.plist(app, "Info.plist")?["CFBundleIdentifier"]?.stringValue
                    else { return nil }
                    return (identifier, Legacy(data: folder, bundle: app))
                }
            }
        }
        return SimulatorContainers(
            bundles: kinds[0], data: kinds[1], groups: kinds[2], plugins: kinds[3], legacy: legacy, notes: guarded.notes
        )
    }

    var appIdentifiers: Set<String> { Set(bundles.keys).union(data.keys) }

    /// Every installed app id, the old layout's included: the candidates owners of a name are chosen from.
    private var installed: Set<String> { appIdentifiers.union(legacy.keys) }

    func apps() -> [SimulatorApp] {
        let current = appIdentifiers.map(app)
        let old = legacy.filter { !appIdentifiers.contains($0.key) }.map { id, found in
            SimulatorApp(
                bundleIdentifier: id, isSystem: false, dataContainer: nil, appBundle: found.bundle, appGroups: [],
                plugins: [], groupMatch: .name, legacyFolder: found.data, notes: [])
        }
        return (current + old).sorted {
            ($0.isSystem ? 1 : 0, $0.bundleIdentifier) < ($1.isSystem ? 1 : 0, $1.bundleIdentifier)
        }
    }

    /// The longest installed app id that the name is or extends (`<id>` or `<id>.…`), as backups resolve domains.
    func owner(of name: Substring) -> String? {
        var best: String?
        for id in installed where name == id || (name.hasPrefix(id) && name.dropFirst(id.count).first == ".") {
            if id.count > (best?.count ?? -1) { best = id }
        }
        return best
    }

    /// One app and its containers (see `SimulatorApp.MatchRule`); reads only its own bundle's executables.
    func app(_ identifier: String) -> SimulatorApp {
        var guarded = LinkGuard()
        let bundle = bundles[identifier].flatMap { Self.appFolder($0, &guarded) }
        let signed = bundle.map { InstalledBundle.read($0, &guarded) }
        // Each container whose id `rule` gives to the app, with the rule that did.
        func companions(_ folders: [String: String], _ rule: (String) -> SimulatorApp.MatchRule?)
            -> [SimulatorApp.Companion]
        {
            folders.compactMap { id, path in rule(id).map { .init(identifier: id, path: path, matchedBy: $0) } }
                .sorted { $0.identifier < $1.identifier }
        }
        let match: SimulatorApp.GroupMatch = signed?.hasEntitlements == true ? .entitlements : .name
        // Apple's apps (their bundles live in the runtime) and unsigned builds: by the naming convention.
        let appGroups = companions(groups) { id in
            if match == .entitlements { return signed!.appGroups.contains(id) ? .entitlements : nil }
            let owned = id.hasPrefix("group.") && owner(of: id.dropFirst("group.".count)) == identifier
            return owned ? .bundleIdPrefix : nil
        }
        let extensions = companions(plugins) { id in
            if let signed { return signed.extensionIdentifiers.contains(id) ? .pluginBundle : nil }
            return id != identifier && owner(of: Substring(id)) == identifier ? .bundleIdPrefix : nil
        }
        return SimulatorApp(
            bundleIdentifier: identifier, isSystem: bundles[identifier] == nil, dataContainer: data[identifier],
            appBundle: bundle, appGroups: appGroups, plugins: extensions, groupMatch: match,
            legacyFolder: nil, notes: guarded.notes)
    }

    /// Each UUID folder in `folder` by the id `identify` reads in it; folders it reads none in (an install in
    /// progress, a malformed plist) are passed over. Two folders claiming one id: the first by name.
    private static func byIdentifier<Found>(
        in folder: String, _ guarded: inout LinkGuard, _ identify: (String, inout LinkGuard) -> (String, Found)?
    ) -> [String: Found] {
        var found: [String: Found] = [:]
        for name in guarded.folders(in: folder, limit: maxContainers) {
            guard let (identifier, value) = identify(Paths.join(folder, name), &guarded), !identifier.isEmpty,
                found[identifier] == nil
            else { continue }
            found[identifier] = value
        }
        return found
    }

    /// The one `.app` folder inside a bundle container.
    private static func appFolder(_ container: String, _ guarded: inout LinkGuard) -> String? {
        guarded.folders(in: container, limit: 10_000).first { $0.hasSuffix(".app") }.map { Paths.join(container, $0) }
    }
}

/// The App Groups an installed `.app`'s and its extensions' executables are entitled to, and its extensions' ids.
struct InstalledBundle {
    let hasEntitlements: Bool
    let appGroups: Set<String>
    let extensionIdentifiers: Set<String>

    static func read(_ app: String, _ guarded: inout LinkGuard) -> InstalledBundle {
        var entitled = false
        var groups: Set<String> = []
        var extensions: Set<String> = []
        var parts = [app]
        for folder in ["PlugIns", "Extensions"] {
            guard let inside = guarded.folder(app, folder) else { continue }
            parts += guarded.folders(in: inside, limit: 10_000).filter { $0.hasSuffix(".appex") }.map {
                Paths.join(inside, $0)
            }
        }
        for (index, part) in parts.enumerated() {
            let info = guarded.plist(part, "Info.plist")
            if index > 0, let identifier = info?["CFBundleIdentifier"]?.stringValue { extensions.insert(identifier) }
            let executable = info?["CFBundleExecutable"]?.stringValue
            guard let entitlements = self.entitlements(of: part, executable: executable, &guarded) else { continue }
            entitled = true
            let ids = entitlements["com.apple.security.application-groups"]?.arrayValue ?? []
            groups.formUnion(ids.compactMap(\.stringValue))
        }
        return InstalledBundle(hasEntitlements: entitled, appGroups: groups, extensionIdentifiers: extensions)
    }

    /// The executable's signed entitlements, else the `.xcent` Xcode leaves beside it.
    private static func entitlements(of bundle: String, executable: String?, _ guarded: inout LinkGuard)
        -> PropertyListValue?
    {
        if let executable, !executable.contains("/"), executable != "..", let file = guarded.file(bundle, executable),
            let value = try? MachOEntitlements.read(executable: file)
        {
            return value
        }
        return guarded.plist(bundle, "archived-expanded-entitlements.xcent")
    }
}
