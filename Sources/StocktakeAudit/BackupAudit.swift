import StocktakeBackup
import StocktakeFiles
import StocktakeModel
import StocktakeReport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device backup as the input (`audit BACKUP --app ID`, no walk) or as evidence for a walked export (`--backup`).
enum BackupAudit {
    struct Input {
        let container: ContainerDescription
        let inventory: Inventory
        let companions: [AppGroupInfo]
        let summary: DeviceBackupSummary
        let content: BackupContentIndex
    }

    static func input(_ request: AuditRequest) throws(AuditError) -> Input? {
        // Refused where a backup was meant (--app, or where Finder keeps them): what to do, not "not a device backup".
        if let refused = BackupFolder.accessRefusal(request.inputPath), case .accessRefused(let path, _) = refused,
            request.backupApp != nil || BackupError.guardedByPrivacySettings(path)
        {
            throw .backup(refused)
        }
        guard BackupFolder.looksLikeBackup(request.inputPath) else {
            // --app names an app of a backup: given with a container, the input is not what the user meant.
            if request.backupApp != nil { throw .backup(.notABackup(path: request.inputPath)) }
            return nil
        }
        if let other = request.backupPath {
            throw .companion(
                path: other,
                reason:
                    "--backup lays a device backup over a container export, and the input is itself a device backup: give one of them"
            )
        }
        do throws(BackupError) {
            let backup =
                if let shared = request.readBackup { shared.backup } else { try DeviceBackup.read(request.inputPath) }
            guard let app = request.backupApp ?? request.bundleIdentifier else {
                throw .noAppChosen(path: request.inputPath, apps: backup.apps.apps.map(\.bundleIdentifier))
            }
            let (tree, summary) = try backup.app(app, role: .input)
            let status = backup.folder.status.map {
                MetadataDocument(path: BackupFolder.statusPlist, value: $0, problem: nil)
            }
            let container = ContainerDescription(
                inputPath: request.inputPath, rootPath: request.inputPath, layout: .deviceBackup, bundleIdentifier: app,
                bundleIdentifierSource: .option,
                identityClues: [IdentityClue(identifier: app, source: .option, path: summary.app.name)],
                metadata: status.map { [$0] } ?? [],
                exportedAt: modificationTime(Paths.join(request.inputPath, BackupFolder.manifestDatabase))
                    .map { ExportTime(seconds: $0, source: .metadataFile) },
                allocatedBytesEstimated: true)
            let companions = summary.companions.map {
                AppGroupInfo(path: $0.name, identifier: $0.identifier, size: $0.total)
            }
            let (inventory, content) = ManifestInventory.build(
                tree: tree, folder: backup.folder, maxDepth: request.scan.maxDepth)
            return Input(
                container: container, inventory: inventory, companions: companions, summary: summary, content: content)
        } catch {
            throw .backup(error)
        }
    }

    /// `--backup`: the app's records, read before the walk so that a bad backup fails at once.
    static func evidence(_ request: AuditRequest, app: String?) throws(AuditError) -> (
        BackupOverlay, DeviceBackupSummary, [ScanIssue]
    )? {
        guard let path = request.backupPath else { return nil }
        do throws(BackupError) {
            let backup = try DeviceBackup.read(path)
            guard let app else { throw .containerUnidentified(path: path) }
            let (tree, summary) = try backup.app(app, role: .evidence)
            return (BackupOverlay(tree: tree), summary, tree.issues + (backup.folder.incompleteness.map { [$0] } ?? []))
        } catch {
            throw .backup(error)
        }
    }

    /// The link itself, never its target.
    private static func modificationTime(_ path: String) -> Int64? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.modificationSeconds : nil
    }
}
