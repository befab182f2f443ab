import StocktakeAudit
import StocktakeFiles

/// A device backup in the inbox is one audit per app it holds (or per `--app` given to the nightly command); every
/// other entry is one audit of a container. A backup that cannot be read stays one job, which fails alone with
/// the reason (encrypted, iOS 9 or older, damaged) when it is audited.
enum BackupInbox {
    struct Job {
        /// The inbox entry's name, and the app for a backup (`name:app` in the output).
        let input: String
        let app: String?
        /// The backup, read once for all its apps' jobs.
        var backup: SharedBackup? = nil
        var label: String { app.map { "\(input):\($0)" } ?? input }

        func audit(inbox: String) -> AuditRequest {
            var audit = AuditRequest(inputPath: Paths.join(inbox, input), backupApp: app)
            audit.readBackup = backup
            return audit
        }
    }

    static func jobs(_ entry: InboxEntry, inbox: String, apps wanted: [String]) -> [Job] {
        guard entry.input.kind == .deviceBackup else { return [Job(input: entry.name, app: nil)] }
        // Unreadable: each job reads it again and fails with the reason.
        let backup = SharedBackup(path: Paths.join(inbox, entry.name))
        if !wanted.isEmpty { return wanted.map { Job(input: entry.name, app: $0, backup: backup) } }
        guard let backup else { return [Job(input: entry.name, app: nil)] }
        return backup.apps.map { Job(input: entry.name, app: $0, backup: backup) }
    }
}
