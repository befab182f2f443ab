import StocktakeModel
import StocktakeReport
import StocktakeScan

/// The optional companions of an audit: the app bundle (`--app-bundle`) and App Group containers (`--app-group`).
enum Companions {
    static func appBundle(at path: String, options: ScanOptions) throws(AuditError) -> AppBundleInfo {
        let inventory = try scan(path, options: options)
        let info = try? PropertyListReader.read(contentsOfFile: path + "/Info.plist")
        return AppBundleInfo(
            path: path, bundleIdentifier: info?["CFBundleIdentifier"]?.stringValue, size: inventory.totals.onDisk,
            infoPlist: info, fileSharingEnabled: info?["UIFileSharingEnabled"]?.boolValue ?? false,
            opensDocumentsInPlace: info?["LSSupportsOpeningDocumentsInPlace"]?.boolValue ?? false)
    }

    static func appGroup(at path: String, options: ScanOptions) throws(AuditError) -> AppGroupInfo {
        let inventory = try scan(path, options: options)
        let metadata = try? PropertyListReader.read(
            contentsOfFile: path + "/.com.apple.mobile_container_manager.metadata.plist")
        return AppGroupInfo(path: path, identifier: metadata?["MCMMetadataIdentifier"]?.stringValue, size: inventory.totals.onDisk)
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
