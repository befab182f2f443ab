import StocktakeModel
import StocktakeReport
import StocktakeScan

/// The optional companions of an audit: the app bundle (`--app-bundle`) and App Group containers (`--app-group`).
enum Companions {
    /// The bundle's summary, and the problem of an Info.plist that is missing or does not read: then whether
    /// Documents is shown to the user is unknown (`infoPlist` nil), not "hidden".
    static func appBundle(at path: String, options: ScanOptions) throws(AuditError) -> (AppBundleInfo, ScanIssue?) {
        let inventory = try scan(path, options: options)
        let infoPath = path + "/Info.plist"
        var info: PropertyListValue?
        var problem: ScanIssue?
        do {
            info = try PropertyListReader.read(contentsOfFile: infoPath)
        } catch {
            problem = ScanIssue(
                path: Array(infoPath.utf8), reason: .malformedMetadata,
                detail: "the app bundle's Info.plist does not read (\(error)): whether Documents is shared with the Files app is unknown")
        }
        let bundle = AppBundleInfo(
            path: path, bundleIdentifier: info?["CFBundleIdentifier"]?.stringValue, size: inventory.totals.onDisk,
            infoPlist: info, fileSharingEnabled: info?["UIFileSharingEnabled"]?.boolValue ?? false,
            opensDocumentsInPlace: info?["LSSupportsOpeningDocumentsInPlace"]?.boolValue ?? false)
        return (bundle, problem)
    }

    /// An App Group (or extension) container: its summary, and its walk for the content checks.
    static func appGroup(at path: String, options: ScanOptions) throws(AuditError) -> (AppGroupInfo, CompanionContainer) {
        let inventory = try scan(path, options: options)
        let metadata = try? PropertyListReader.read(
            contentsOfFile: path + "/.com.apple.mobile_container_manager.metadata.plist")
        let identifier = metadata?["MCMMetadataIdentifier"]?.stringValue
        let name = identifier ?? String(path.split(separator: "/").last ?? Substring(path))
        return (AppGroupInfo(path: path, identifier: identifier, size: inventory.totals.onDisk),
                CompanionContainer(name: name, path: path, inventory: inventory))
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
    /// Its identifier, or its folder's name when the metadata does not say.
    let name: String
    let path: String
    let inventory: Inventory

    /// What its files reveal, each item named `<name>/<path>`.
    func sensitiveData() -> [CompanionSensitiveItem] {
        ContentInspector(root: path, inventory: inventory).inspect().map { item in
            CompanionSensitiveItem(
                container: name, path: inventory.path(item.entry), file: inventory.entries[Int(item.entry)], item: item)
        }
    }
}
