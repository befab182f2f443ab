import Foundation
import StocktakeDiff
import StocktakeFiles
import StocktakeModel
import StocktakePolicy
import StocktakeReport

/// Makes a published run, its history row and its audited record one recoverable step. A run is published
/// (renamed into place) before its history row is inserted and its export recorded as audited; a run killed in
/// between, or a history insert that failed (a reader holding the store, a full disk), left a run the store or
/// the record does not name. Each night, under the lock and before auditing, the missing rows are rebuilt from
/// the runs' own `report.json`, and the missing records from the fingerprint each run folder keeps of its
/// export (`.stocktake-input.json`, written before publishing). Nothing is lost, and an export is not audited twice.
enum NightlyRecovery {
    static let inputFile = ".stocktake-input.json"

    /// Repairs the store and the record; returns the problems (a run whose report cannot be read stays unnamed)
    /// and whether the record changed (it is then saved).
    static func repair(
        folder: ReportsFolder, history: HistoryStore?, audited: inout AuditedExports, failOn: Severity?
    ) -> (problems: [String], recordChanged: Bool) {
        var problems: [String] = []
        var recordChanged = false
        let apps = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        for app in apps {
            let runs = folder.runIDs(app)
            guard !runs.isEmpty else { continue }
            if let history, let known = try? Set(history.runIDs(bundleIdentifier: app)) {
                for run in runs where !known.contains(run) {
                    do {
                        let snapshot = try ReportReader.read(path: folder.appFolder(app) + "/" + run + "/report.json")
                        let failed = failOn.map { threshold in snapshot.findings.contains { $0.severity >= threshold } } ?? false
                        try history.record(HistoryRun(bundleIdentifier: app, runID: run, snapshot: snapshot, status: failed ? .policyFailure : .clean))
                    } catch {
                        problems.append("\(app) \(run): not in the history store, and its report cannot be read back: \(error)")
                    }
                }
            }
            for run in runs {
                guard let fingerprint = fingerprint(in: folder.appFolder(app) + "/" + run) else { continue }
                let name = app + "/" + run
                // A newer run of the same export (or of a changed one) keeps its place.
                if let recorded = audited.exports[fingerprint.input], !isOlder(recorded.run, than: name) { continue }
                audited.record(fingerprint, run: name)
                recordChanged = true
            }
        }
        return (problems, recordChanged)
    }

    /// Written into the run folder before it is published.
    static func write(_ fingerprint: ExportFingerprint, into runFolder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(fingerprint).write(to: URL(fileURLWithPath: runFolder + "/" + inputFile))
    }

    private static func fingerprint(in runFolder: String) -> ExportFingerprint? {
        var options = RegularFile.Options.named(maxBytes: 1 << 20)
        guard let bytes = try? RegularFile.open(runFolder + "/" + inputFile, options: &options).readAll() else { return nil }
        return try? JSONDecoder().decode(ExportFingerprint.self, from: Data(bytes))
    }

    /// `app/run`: by the run ids' time order (an unreadable one counts as older).
    private static func isOlder(_ recorded: String, than candidate: String) -> Bool {
        let order = { (name: String) in name.split(separator: "/").last.flatMap { ReportsFolder.runOrder(String($0)) } }
        guard let old = order(recorded), let new = order(candidate) else { return true }
        return old < new
    }
}
