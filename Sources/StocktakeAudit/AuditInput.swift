import StocktakeBackup
import StocktakeContent
import StocktakeModel
import StocktakeReport
import StocktakeScan

/// What an audit reads: a container folder, walked once the output folder is ready; an archive, whose single pass
/// both finds the container and lists it; or one app of a device backup, listed from its manifest.
enum AuditInput {
    case folder(ContainerDescription)
    case archive(ArchiveInput)
    case backup(BackupAudit.Input)

    static func open(_ request: AuditRequest) throws(AuditError) -> AuditInput {
        if let backup = try BackupAudit.input(request) { return .backup(backup) }
        do {
            if ArchiveInput.isArchiveCandidate(request.inputPath) {
                return .archive(
                    try ArchiveInput.read(
                        path: request.inputPath, bundleIdentifier: request.bundleIdentifier, options: request.scan,
                        capturingContent: request.contentChecks && request.configuration.contentChecks))
            }
            let container = try ContainerSource.identify(
                path: request.inputPath, bundleIdentifier: request.bundleIdentifier,
                inSimulatorDevice: request.simulator != nil)
            return .folder(request.deviceCopy.map { container.copied(from: $0) } ?? container)
        } catch {
            throw .input(error)
        }
    }

    var container: ContainerDescription {
        switch self {
        case .folder(let container): container
        case .archive(let archive): archive.container
        case .backup(let backup): backup.container
        }
    }

    /// A backup's group and plugin domains, shown as `--app-group` companions.
    var companions: [AppGroupInfo] {
        if case .backup(let backup) = self { return backup.companions }
        return []
    }

    var deviceBackup: DeviceBackupSummary? {
        if case .backup(let backup) = self { return backup.summary }
        return nil
    }

    func inventory(_ options: ScanOptions) throws(ScanError) -> Inventory {
        switch self {
        case .folder(let container): try InventoryScanner.scan(root: container.rootPath, options: options)
        case .archive(let archive): archive.inventory
        case .backup(let backup): backup.inventory
        }
    }

    /// Whether `duplicates` compares anything: not for a device backup, whose content files are named by fileID.
    var comparesContents: Bool {
        if case .backup = self { return false }
        return true
    }

    /// Files of equal content: read from the folder, or by a second pass over the archive; nil for a device backup.
    func duplicates(in inventory: Inventory, minimumBytes: Int64, threads: Int) throws(ScanError) -> DuplicateSearch? {
        switch self {
        case .folder(let container):
            try DuplicateFinder(rootPath: container.rootPath, minimumBytes: minimumBytes, threads: threads).find(
                in: inventory)
        case .archive(let archive): try archive.findDuplicates(minimumBytes: minimumBytes)
        case .backup: nil
        }
    }

    /// What the files' contents reveal, read from a folder, from copies of the few files read out of an archive, or
    /// from a device backup's content files (with their data protection classes).
    func contentPass(in inventory: Inventory, threads: Int, walkScan: WalkTextScan?) -> ContentInspector.Outcome {
        switch self {
        case .folder(let container):
            return ContentInspector(
                root: container.rootPath, inventory: inventory, threads: threads, walkScan: walkScan
            ).run()
        case .backup(let backup):
            let content = backup.content
            var outcome = ContentInspector(
                root: content.folder.path, inventory: inventory, threads: threads,
                locate: { content.contentPath(of: $0).map { .file($0) } }
            ).run()
            outcome.items = outcome.items.map { $0.with(unprotected: content.unprotected.contains($0.entry)) }
            return outcome
        case .archive(let archive):
            do {
                return try archive.contentPass(threads: threads)
            } catch {
                // The first pass read it whole; a second that fails now (the file changed) leaves the content unread, and says so.
                var outcome = ContentInspector.Outcome()
                outcome.issues = [
                    ScanIssue(
                        path: [], reason: .contentNotRead,
                        detail: "the content checks could not read the archive again: \(error)")
                ]
                outcome.coverage.countSkipped(.unreadable, bytes: 0)
                return outcome
            }
        }
    }
}
