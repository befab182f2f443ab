import StocktakeAudit
import StocktakeFiles

/// One audit of an inbox entry: one per app of a device backup (or per `--app`), else one.
struct InboxJob {
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

    /// A backup that cannot be read stays one job, which fails alone with the reason.
    static func jobs(_ entry: InboxEntry, inbox: String, apps wanted: [String]) -> [InboxJob] {
        guard entry.input.kind == .deviceBackup else { return [InboxJob(input: entry.name, app: nil)] }
        let backup = SharedBackup(path: Paths.join(inbox, entry.name))
        if !wanted.isEmpty { return wanted.map { InboxJob(input: entry.name, app: $0, backup: backup) } }
        guard let backup else { return [InboxJob(input: entry.name, app: nil)] }
        return backup.apps.map { InboxJob(input: entry.name, app: $0, backup: backup) }
    }
}
