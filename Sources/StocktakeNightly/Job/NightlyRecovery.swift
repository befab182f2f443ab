import Foundation
import StocktakeDiff
import StocktakeFiles
import StocktakeHistory
import StocktakeModel
import StocktakePolicy
import StocktakeReport

/// Makes a published run, its history row and its audited record one recoverable step: each night, before auditing,
/// missing rows are rebuilt from the runs' `report.json`, and missing records from their `RunInput`.
enum NightlyRecovery {
    struct Repair {
        /// Runs whose report cannot be read back (they stay out of the store).
        var problems: [String] = []
        var recordChanged = false
        /// What every run folder audited, for the night's own decisions (a backup's apps already done).
        var published = PublishedInputs()
        /// Set when this folder's runs are recorded under another source: recording them again shows each app twice.
        var otherSource: String? = nil
    }

    private static func recordedSource(
        of runs: [String], app: String, folder: ReportsFolder, history: any RunHistory, _ request: NightlyRequest
    ) throws -> String? {
        guard !runs.isEmpty else { return nil }
        let locations = Set(runs.map { ResolvedPath.of(Paths.join(folder.appFolder(app), $0)) })
        for series in try history.series(ofApp: app) where series.source != request.source {
            let runs = try history.runs(of: series, limit: Int.max)
            if runs.contains(where: { $0.reportLocation.map(locations.contains) ?? false }) { return series.source }
        }
        return nil
    }

    static func repair(
        folder: ReportsFolder, history: (any RunHistory)?, audited: inout AuditedExports, request: NightlyRequest
    ) -> Repair {
        var repair = Repair()
        for app in folder.apps() {
            let runs = folder.runIDs(app)
            guard !runs.isEmpty else { continue }
            if let history {
                var missing: [String] = []
                do {
                    let known = try Set(history.runIDs(of: RunSeries(bundleIdentifier: app, source: request.source)))
                    missing = runs.filter { !known.contains($0) }
                    if let source = try recordedSource(of: missing, app: app, folder: folder, history: history, request)
                    {
                        repair.otherSource =
                            "the reports folder \(folder.path) holds runs recorded under the source '\(source)' (\(app)), not '\(request.source)': recording them again would show the app twice and restart its trend; pass --source \(source), or give a new reports folder"
                        return repair
                    }
                } catch {
                    repair.problems.append("\(app): its runs cannot be checked against the history store: \(error)")
                }
                for run in missing {
                    let runFolder = Paths.join(folder.appFolder(app), run)
                    let snapshot: ReportSnapshot
                    do {
                        snapshot = try ReportReader.read(path: Paths.join(runFolder, "report.json"))
                    } catch {
                        repair.problems.append(
                            "\(app) \(run): not in the history store, and its report cannot be read back: \(error)")
                        continue
                    }
                    let failed = RecordedReport.isPolicyFailure(
                        snapshot, failingAt: request.failOn, requiringCoverage: request.gates.contentCoverage != nil)
                    do {
                        try history.recordChecked(
                            HistoryRun(
                                bundleIdentifier: app, runID: run, snapshot: snapshot,
                                status: failed ? .policyFailure : .clean, source: request.source,
                                recordedBy: request.recordedBy, reportLocation: ResolvedPath.of(runFolder)))
                    } catch {
                        repair.problems.append(
                            "\(app) \(run): not in the history store, and not recorded now: \(error)")
                    }
                }
            }
            for run in runs {
                if let input = RunInput.read(from: Paths.join(folder.appFolder(app), run)) {
                    repair.published.add(input, run: Paths.join(app, run))
                }
            }
        }
        for (fingerprint, run) in repair.published.completeExports {
            // A newer run of the same export (or of a changed one) keeps its place.
            if let recorded = audited.exports[fingerprint.input], !PublishedInputs.isOlder(recorded.run, than: run) {
                continue
            }
            audited.record(fingerprint, run: run)
            repair.recordChanged = true
        }
        return repair
    }
}
