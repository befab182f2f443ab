import StocktakeBackup
import StocktakeModel
import StocktakeScan

/// What an input path is, as `audit` decides it (`AuditInput`): the one answer the nightly job asks of its inbox.
public enum InputKind: Sendable, Equatable {
    case deviceBackup
    /// A regular file that starts as an archive Stocktake reads (or cannot be opened: its audit then says why).
    case archive
    /// A regular file that is no archive: a note or a README beside the exports.
    case otherFile
    /// A folder (a container, or whatever the audit then finds it is not), or nothing at all.
    case folder

    public static func of(_ path: String) -> InputKind {
        if BackupFolder.looksLikeBackup(path) { return .deviceBackup }
        guard ArchiveInput.isArchiveCandidate(path) else { return .folder }
        return ArchiveInput.startsAsArchive(path) ? .archive : .otherFile
    }

    /// What to grant when macOS's privacy protection refuses `path` (Finder's backups, read by cron), else nil.
    package static func privacyAdvice(_ path: String) -> String? {
        guard case .accessRefused(let refused, _)? = BackupFolder.accessRefusal(path),
            BackupError.guardedByPrivacySettings(refused)
        else { return nil }
        return BackupError.fullDiskAccessAdvice
    }
}

/// Equal signatures of one path mean nothing in it changed.
package typealias InputSignature = ExportSignature

/// What the nightly job knows of an input before auditing it, decided as the audit decides it.
package struct InputDescription: Sendable {
    package let kind: InputKind
    /// The app a container folder names (an archive is not read before its audit; a backup holds many apps).
    package let bundleIdentifier: String?
    /// The export time a container folder's own files give.
    package let containerExportedAt: ExportTime?
    /// Nil when it cannot be read, and for a folder that is no container (its audit then says why).
    package let signature: InputSignature?

    package init(path: String) {
        kind = InputKind.of(path)
        // An archive or a backup is not read here; a folder is identified as its audit will identify it.
        let container = kind == .folder || kind == .otherFile ? (try? ContainerSource.identify(path: path)) : nil
        bundleIdentifier = container?.bundleIdentifier
        containerExportedAt = container?.exportedAt
        let isContainerOrFile = container != nil || kind == .archive || kind == .deviceBackup
        signature = isContainerOrFile ? ExportSignature.of(path: path) : nil
    }

    /// When it was exported: a container's own time; an archive's or a backup's newest modification time.
    package var exportedAt: ExportTime? {
        guard kind == .archive || kind == .deviceBackup else { return containerExportedAt }
        return signature.map { ExportTime(seconds: $0.newestModified, source: .inputFolder) }
    }
}

/// A device backup read once for the audits of each of its apps (the nightly job's inbox).
package struct SharedBackup: Sendable {
    let backup: DeviceBackup
    package var apps: [String] { backup.apps.apps.map(\.bundleIdentifier) }

    /// Nil when it does not read: each audit of it then reads it again and fails with the reason.
    package init?(path: String) {
        guard let backup = try? DeviceBackup.read(path) else { return nil }
        self.backup = backup
    }
}
