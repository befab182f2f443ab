import StocktakeModel

/// What the CLI and the audit ask of a device backup: its apps, or one app's records and summary.
package struct DeviceBackup: Sendable {
    package let folder: BackupFolder
    package let apps: BackupApps
    private let domains: [String: DomainTree]

    /// Opens the backup and reads its app domains; refuses encrypted, iOS 9-or-older, incomplete and damaged ones.
    package static func read(_ path: String) throws(BackupError) -> DeviceBackup {
        let folder = try BackupFolder.open(path)
        let records = try ManifestDatabase(folder).appDomainRecords()
        let domains = Dictionary(grouping: records, by: \.domain).mapValues { DomainTree($0) }
        return DeviceBackup(folder: folder, apps: BackupApps(domains: domains, folder: folder), domains: domains)
    }

    /// One app's records as a tree, and the summary for the report; throws with the nearest ids when it is absent.
    package func app(_ identifier: String, role: DeviceBackupSummary.Role) throws(BackupError) -> (
        tree: DomainTree, summary: DeviceBackupSummary
    ) {
        guard let app = apps.app(identifier), let tree = domains[app.domain.name] else {
            throw .appNotInBackup(
                path: folder.path, app: identifier, nearest: apps.nearest(to: identifier), count: apps.apps.count)
        }
        let summary = DeviceBackupSummary(
            path: folder.path, role: role, app: app.domain, companions: app.companions,
            productVersion: folder.productVersion, date: folder.date)
        return (tree, summary)
    }
}

extension DeviceBackupSummary {
    package func with(notInExport: Int) -> DeviceBackupSummary {
        DeviceBackupSummary(
            path: path, role: role, app: app, companions: companions, productVersion: productVersion, date: date,
            notInExport: notInExport)
    }
}
