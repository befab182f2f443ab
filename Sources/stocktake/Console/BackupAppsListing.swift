import Foundation
import StocktakeBackup
import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// What `stocktake apps BACKUP` prints: each app domain of the backup with its files and bytes (the manifest's
/// logical sizes), and its App Group and extension domains. Ids come from the backup: lines go through
/// `ConsoleText.visible`, JSON through the escaping stream.
struct BackupAppsListing {
    let backup: DeviceBackup

    var text: String {
        let apps = backup.apps
        var header = "\(apps.apps.count) app\(apps.apps.count == 1 ? "" : "s") in \(backup.folder.path)"
        var facts: [String] = []
        if let version = backup.folder.productVersion { facts.append("iOS \(version)") }
        if let date = backup.folder.date {
            facts.append("backed up \(ReportDates.iso8601(Date(timeIntervalSince1970: TimeInterval(date))))")
        }
        if !facts.isEmpty { header += " (" + facts.joined(separator: ", ") + ")" }
        var lines = [header]
        let width = apps.apps.map { $0.bundleIdentifier.count }.max() ?? 0
        for app in apps.apps {
            lines.append(Self.row(app.bundleIdentifier, app.domain, width: width))
            for companion in app.companions {
                lines.append("  " + Self.row(companion.name, companion, width: 0))
            }
        }
        if !apps.unattributed.isEmpty {
            lines.append("Domains no app claims:")
            for domain in apps.unattributed { lines.append("  " + Self.row(domain.name, domain, width: 0)) }
        }
        return lines.map(ConsoleText.visible).joined(separator: "\n") + "\n"
    }

    /// `id  4 files (1 symlink), 12 folders, 5084 bytes (5.1 KB)`.
    private static func row(_ name: String, _ domain: DeviceBackupSummary.Domain, width: Int) -> String {
        let padding = String(repeating: " ", count: max(0, width - name.count))
        let total = domain.total
        var text = "\(name)\(padding)  \(total.files) file\(total.files == 1 ? "" : "s")"
        if domain.symlinks > 0 { text += " (\(domain.symlinks) symlink\(domain.symlinks == 1 ? "" : "s"))" }
        text += ", \(domain.directories) folder\(domain.directories == 1 ? "" : "s")"
        return text + ", \(total.apparentBytes) bytes (\(ByteCount.format(total.apparentBytes)))"
    }

    /// The listing as JSON: `{backup: {path, productVersion, date}, apps: [...], unattributed: [...]}`, sizes in
    /// report.json's words (`apparentBytes`, `allocatedBytes` with `allocatedBytesEstimated`: whole 4 KiB blocks).
    func json() throws -> [UInt8] {
        var bytes: [UInt8] = []
        let json = JSONStream { bytes.append(contentsOf: $0) }
        // A domain in report.json's words (`deviceBackup.app`), plus that its allocated bytes are an estimate.
        typealias K = ReportKeys
        func domain(_ domain: DeviceBackupSummary.Domain) throws {
            try json.beginObject(compact: true)
            try json.key(K.BackupDomain.allocatedBytes)
            try json.int(domain.total.allocatedBytes)
            try json.key(K.DeviceBackup.allocatedBytesEstimated)
            try json.bool(true)
            try json.key(K.BackupDomain.apparentBytes)
            try json.int(domain.total.apparentBytes)
            try json.key(K.BackupDomain.directories)
            try json.int(domain.directories)
            try json.key(K.BackupDomain.domain)
            try json.string(domain.name)
            try json.key(K.BackupDomain.files)
            try json.int(domain.total.files)
            try json.key(K.BackupDomain.identifier)
            try json.string(domain.identifier)
            try json.key(K.BackupDomain.kind)
            try json.string(domain.kind.rawValue)
            try json.key(K.BackupDomain.symlinks)
            try json.int(domain.symlinks)
            try json.endObject()
        }
        try json.beginObject()
        try json.key(ListingKey.apps)
        try json.beginArray()
        for app in backup.apps.apps {
            try json.beginObject()
            try json.key(K.BackupDomain.allocatedBytes)
            try json.int(app.domain.total.allocatedBytes)
            try json.key(K.DeviceBackup.allocatedBytesEstimated)
            try json.bool(true)
            try json.key(ListingKey.appGroups)
            try json.beginArray()
            for companion in app.companions where companion.kind == .appGroup { try domain(companion) }
            try json.endArray()
            try json.key(K.BackupDomain.apparentBytes)
            try json.int(app.domain.total.apparentBytes)
            try json.key(ListingKey.bundleIdentifier)
            try json.string(app.bundleIdentifier)
            try json.key(K.BackupDomain.directories)
            try json.int(app.domain.directories)
            try json.key(K.BackupDomain.domain)
            try json.string(app.domain.name)
            try json.key(K.BackupDomain.files)
            try json.int(app.domain.total.files)
            try json.key(ListingKey.plugins)
            try json.beginArray()
            for companion in app.companions where companion.kind == .plugin { try domain(companion) }
            try json.endArray()
            try json.key(K.BackupDomain.symlinks)
            try json.int(app.domain.symlinks)
            try json.endObject()
        }
        try json.endArray()
        try json.key(ListingKey.backup)
        try json.beginObject()
        if let date = backup.folder.date {
            try json.key(K.DeviceBackup.date)
            try json.string(ReportDates.iso8601(Date(timeIntervalSince1970: TimeInterval(date))))
        }
        try json.key(K.DeviceBackup.path)
        try json.string(backup.folder.path)
        if let version = backup.folder.productVersion {
            try json.key(K.DeviceBackup.productVersion)
            try json.string(version)
        }
        try json.endObject()
        try json.key(ListingKey.unattributed)
        try json.beginArray()
        for companion in backup.apps.unattributed { try domain(companion) }
        try json.endArray()
        try json.endObject()
        try json.finish()
        return bytes
    }
}

/// The listing's own keys; the figures and the backup's facts use report.json's (`ReportKeys`).
private enum ListingKey: String {
    case apps, appGroups, backup, bundleIdentifier, plugins, unattributed
}
