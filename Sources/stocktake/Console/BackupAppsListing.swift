import Foundation
import StocktakeBackup
import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// What `stocktake apps BACKUP` prints: each app domain of the backup with its files and bytes (the manifest's
/// logical sizes), and its App Group and extension domains. Ids come from the backup: lines go through
/// `Terminal.visible`, JSON through the escaping stream.
struct BackupAppsListing {
    let backup: DeviceBackup

    var text: String {
        let apps = backup.apps
        var header = "\(Plural.count(apps.apps.count, "app")) in \(backup.folder.path)"
        let facts = [backup.folder.productVersion.map { "iOS \($0)" }, date.map { "backed up \($0)" }].compactMap { $0 }
        if !facts.isEmpty { header += " (" + facts.joined(separator: ", ") + ")" }
        var lines = [header]
        let width = apps.apps.map { $0.bundleIdentifier.count }.max() ?? 0
        for app in apps.apps {
            lines.append(Self.row(app.bundleIdentifier, app.domain, width: width))
            for companion in app.companions { lines.append("  " + Self.row(companion.name, companion, width: 0)) }
        }
        if !apps.unattributed.isEmpty {
            lines.append("Domains no app claims:")
            for domain in apps.unattributed { lines.append("  " + Self.row(domain.name, domain, width: 0)) }
        }
        return lines.map(Terminal.visible).joined(separator: "\n") + "\n"
    }

    private var date: String? {
        backup.folder.date.map { ReportDates.iso8601(Date(timeIntervalSince1970: TimeInterval($0))) }
    }

    /// `id  4 files (1 symlink), 12 folders, 5084 bytes (5.1 KB)`.
    private static func row(_ name: String, _ domain: DeviceBackupSummary.Domain, width: Int) -> String {
        let padding = String(repeating: " ", count: max(0, width - name.count))
        let (total, symlinks) = (domain.total, domain.symlinks)
        let links = symlinks > 0 ? " (\(Plural.count(symlinks, "symlink")))" : ""
        return
            "\(name)\(padding)  \(Plural.count(total.files, "file"))\(links), \(Plural.count(domain.directories, "folder")), "
            + "\(total.apparentBytes) bytes (\(ByteCount.format(total.apparentBytes)))"
    }

    /// The listing as JSON: `{backup: {path, productVersion, date}, apps: [...], unattributed: [...]}`, sizes in
    /// report.json's words (`apparentBytes`, `allocatedBytes` with `allocatedBytesEstimated`: whole 4 KiB blocks).
    func json() throws -> [UInt8] {
        var bytes: [UInt8] = []
        let json = JSONStream { bytes.append(contentsOf: $0) }
        typealias K = ReportKeys
        func domains(_ key: ListingKey, _ domains: [DeviceBackupSummary.Domain]) throws {
            try json.array(key) { for domain in domains { try json.backupDomain(domain, estimated: true) } }
        }
        try json.object {
            try json.array(ListingKey.apps) {
                for app in backup.apps.apps {
                    try json.object {
                        try json.field(K.BackupDomain.allocatedBytes, app.domain.total.allocatedBytes)
                        try json.field(K.DeviceBackup.allocatedBytesEstimated, true)
                        try domains(.appGroups, app.companions.filter { $0.kind == .appGroup })
                        try json.field(K.BackupDomain.apparentBytes, app.domain.total.apparentBytes)
                        try json.field(ListingKey.bundleIdentifier, app.bundleIdentifier)
                        try json.field(K.BackupDomain.directories, app.domain.directories)
                        try json.field(K.BackupDomain.domain, app.domain.name)
                        try json.field(K.BackupDomain.files, app.domain.total.files)
                        try domains(.plugins, app.companions.filter { $0.kind == .plugin })
                        try json.field(K.BackupDomain.symlinks, app.domain.symlinks)
                    }
                }
            }
            try json.object(ListingKey.backup) {
                try json.field(K.DeviceBackup.date, ifPresent: date)
                try json.field(K.DeviceBackup.path, backup.folder.path)
                try json.field(K.DeviceBackup.productVersion, ifPresent: backup.folder.productVersion)
            }
            try domains(.unattributed, backup.apps.unattributed)
        }
        try json.finish()
        return bytes
    }
}

/// The listing's own keys; the figures and the backup's facts use report.json's (`ReportKeys`).
private enum ListingKey: String, JSONKey { case apps, appGroups, backup, bundleIdentifier, plugins, unattributed }
