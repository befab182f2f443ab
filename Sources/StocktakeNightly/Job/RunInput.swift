import Foundation
import StocktakeFiles

/// What a run folder audited, written before it is published: the next night rebuilds the audited record from these,
/// so a run killed between publishing and recording is neither lost nor audited again.
struct RunInput: Codable, Equatable {
    static let fileName = ".stocktake-input.json"

    let fingerprint: ExportFingerprint
    /// The backup's app this run audited; nil for a container or an archive.
    let backupApp: String?
    /// Every app of the backup's runs that night: the backup counts as audited once each has a run.
    let backupApps: [String]?

    // The fingerprint's keys stay at the top level, as run folders written before backups had a record keep them.
    private enum CodingKeys: String, CodingKey { case backupApp, backupApps }

    func encode(to encoder: any Encoder) throws {
        try fingerprint.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(backupApp, forKey: .backupApp)
        try container.encodeIfPresent(backupApps, forKey: .backupApps)
    }

    func write(into runFolder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: Paths.join(runFolder, Self.fileName)))
    }

    static func read(from runFolder: String) -> RunInput? {
        var options = RegularFile.Options.named(maxBytes: 1 << 20)
        let bytes = try? RegularFile.open(Paths.join(runFolder, fileName), options: &options).readAll()
        return bytes.flatMap { try? JSONDecoder().decode(RunInput.self, from: Data($0)) }
    }
}

extension RunInput {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            fingerprint: try ExportFingerprint(from: decoder),
            backupApp: try container.decodeIfPresent(String.self, forKey: .backupApp),
            backupApps: try container.decodeIfPresent([String].self, forKey: .backupApps))
    }
}

/// Every run folder's `RunInput`, and the exports whose runs are all published.
struct PublishedInputs {
    /// `app/run`, relative to REPORTS.
    private(set) var runs: [(run: String, input: RunInput)] = []

    mutating func add(_ input: RunInput, run: String) { runs.append((run, input)) }

    /// Each export whose runs are all there, with its newest run: a backup once each of its apps has its run.
    var completeExports: [(fingerprint: ExportFingerprint, run: String)] {
        var complete: [(ExportFingerprint, String)] = []
        var backups: [ExportFingerprint: (apps: Set<String>, wanted: Set<String>, newest: String)] = [:]
        for (run, input) in runs {
            guard let app = input.backupApp else {
                complete.append((input.fingerprint, run))
                continue
            }
            var backup = backups[input.fingerprint] ?? ([], Set(input.backupApps ?? [app]), run)
            backup.apps.insert(app)
            if Self.isOlder(backup.newest, than: run) { backup.newest = run }
            backups[input.fingerprint] = backup
        }
        for (fingerprint, backup) in backups where backup.wanted.isSubset(of: backup.apps) {
            complete.append((fingerprint, backup.newest))
        }
        return complete
    }

    /// The apps of a device backup with a run of exactly this fingerprint: not audited again.
    func backupRuns(of fingerprint: ExportFingerprint) -> [String: String] {
        var found: [String: String] = [:]
        for (run, input) in runs where input.fingerprint == fingerprint {
            guard let app = input.backupApp, found[app].map({ Self.isOlder($0, than: run) }) ?? true else { continue }
            found[app] = run
        }
        return found
    }

    /// `app/run`: by the run ids' time order (an unreadable one counts as older).
    static func isOlder(_ recorded: String, than candidate: String) -> Bool {
        let order = { (name: String) in name.split(separator: "/").last.flatMap { ReportsFolder.runOrder(String($0)) } }
        guard let old = order(recorded), let new = order(candidate) else { return true }
        return old < new
    }
}
