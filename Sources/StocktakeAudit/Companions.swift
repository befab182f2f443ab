import StocktakeContent
import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists
import StocktakeReport
import StocktakeScan

/// The app bundle (`--app-bundle`) and App Group containers (`--app-group`).
enum Companions {
    /// The bundle's summary, and why its Info.plist does not read: whether Documents is shown is then unknown.
    static func appBundle(at path: String, options: ScanOptions) throws(AuditError) -> (AppBundleInfo, ScanIssue?) {
        let inventory = try scan(path, options: options)
        let infoPath = Paths.join(path, "Info.plist")
        var info: PropertyListValue?
        var problem: ScanIssue?
        do {
            info = try PropertyListReader.read(contentsOfFile: infoPath)
        } catch {
            problem = ScanIssue(
                path: Array(infoPath.utf8), reason: .malformedMetadata,
                detail:
                    "the app bundle's Info.plist does not read (\(error)): whether Documents is shared with the Files app is unknown"
            )
        }
        // A secret shipped in Info.plist is a finding of its own, and reports show it by its shape only.
        let name = String(path.split(separator: "/").last ?? Substring(path))
        let secrets = info.map { BundleMetadataSecrets.find(in: $0) } ?? []
        let bundle = AppBundleInfo(
            path: path, bundleIdentifier: info?["CFBundleIdentifier"]?.stringValue, size: inventory.totals.onDisk,
            infoPlist: info.map(BundleMetadataSecrets.redacted),
            fileSharingEnabled: info?["UIFileSharingEnabled"]?.boolValue ?? false,
            opensDocumentsInPlace: info?["LSSupportsOpeningDocumentsInPlace"]?.boolValue ?? false,
            secrets: secrets.map { AppBundleSecret(bundle: name, place: $0.place, kind: $0.kind, length: $0.length) })
        return (bundle, problem)
    }

    /// An App Group (or extension) container and its walk. `matchedBy`: the rule that gave it to the app;
    /// `identifier` names a container whose metadata plist was not copied (`audit --device`).
    static func appGroup(
        at path: String, matchedBy: String? = nil, identifier known: String? = nil, options: ScanOptions
    ) throws(AuditError) -> (AppGroupInfo, CompanionContainer) {
        let inventory = try scan(path, options: options)
        let metadata = try? PropertyListReader.read(
            contentsOfFile: Paths.join(path, ".com.apple.mobile_container_manager.metadata.plist"))
        let identifier = metadata?["MCMMetadataIdentifier"]?.stringValue ?? known
        let name = identifier ?? String(path.split(separator: "/").last ?? Substring(path))
        return (
            AppGroupInfo(path: path, identifier: identifier, size: inventory.totals.onDisk, matchedBy: matchedBy),
            CompanionContainer(name: name, path: path, inventory: inventory)
        )
    }

    private static func scan(_ path: String, options: ScanOptions) throws(AuditError) -> Inventory {
        var quiet = options
        quiet.progress = nil
        do {
            return try InventoryScanner.scan(root: path, options: quiet)
        } catch {
            throw .companion(path: path, reason: error.description)
        }
    }
}

/// A companion container walked beside the audited one, kept for the content checks.
struct CompanionContainer {
    let name: String
    let path: String
    let inventory: Inventory

    /// What its files reveal, each item and issue named `<name>/<path>`.
    func contentPass(threads: Int) -> (items: [CompanionSensitiveItem], coverage: ContentCoverage, issues: [ScanIssue])
    {
        let outcome = ContentInspector(root: path, inventory: inventory, threads: threads).run()
        let items = outcome.items.map { item in
            CompanionSensitiveItem(
                container: name, path: inventory.path(item.entry), file: inventory.entries[Int(item.entry)], item: item)
        }
        let prefix = Array(name.utf8) + [UInt8(ascii: "/")]
        let issues = outcome.issues.map { ScanIssue(path: prefix + $0.path, reason: $0.reason, detail: $0.detail) }
        return (items, outcome.coverage, issues)
    }
}
