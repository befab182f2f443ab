import StocktakeAudit
import StocktakeBackup
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
        var backup: DeviceBackup?
        var label: String { app.map { "\(input):\($0)" } ?? input }
    }

    static func jobs(_ inputs: [String], inbox: String, apps wanted: [String]) -> [Job] {
        inputs.flatMap { input -> [Job] in
            let path = Paths.join(inbox, input)
            guard InputKind.of(path) == .deviceBackup else { return [Job(input: input, app: nil)] }
            // Unreadable: each job reads it again and fails with the reason.
            let backup = try? DeviceBackup.read(path)
            if !wanted.isEmpty { return wanted.map { Job(input: input, app: $0, backup: backup) } }
            guard let backup else { return [Job(input: input, app: nil)] }
            return backup.apps.apps.map { Job(input: input, app: $0.bundleIdentifier, backup: backup) }
        }
    }
}
