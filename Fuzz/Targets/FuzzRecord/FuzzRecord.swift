import Foundation
import StocktakeAudit
import StocktakeHistory
import StocktakeNightly

@testable import StocktakeReport

/// What one machine records, every reader survives: any bytes as a report.json given to `record`, checked as
/// `record` checks it, recorded into an SQLite history (a few run ids, so runs accumulate and replace each other),
/// then the index page over the history and the metrics file, as `index` and `record --metrics-file` make them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let snapshot = try? ReportReader.read(bytes: bytes, name: "report.json"),
        RecordedValues.problem(withGeneratedAt: snapshot.provenance.generatedAt) == nil
    else { return 0 }
    let run = HistoryRun(
        bundleIdentifier: ReportPaths.appFolderName(snapshot.provenance.bundleIdentifier), runID: "run-\(size % 4)",
        snapshot: snapshot,
        status: RecordedReport.isPolicyFailure(snapshot, failingAt: .warning, requiringCoverage: true)
            ? .policyFailure : .clean,
        source: "fuzz", reportLocation: "https://ci.example.com/jobs/\(size)")
    guard run.problem == nil, let store = FuzzHistory.store else { return 0 }
    do {
        try store.recordChecked(run)
        try IndexBuilder(outputPath: FuzzHistory.folder, history: store, showsMachines: true, thisMachine: nil)
            .write(generatedAt: "2026-11-21T02:00:00Z")
        let runs = try store.runs(of: run.series, limit: 30)
        _ = RunMetrics(runs: runs, job: nil).render()
    } catch {
        // A refusal is an answer; only a trap, a leak or a hang is a finding.
    }
    return 0
}

/// One history for the whole run, in a fresh temporary folder.
enum FuzzHistory {
    static let folder: String = {
        let path = NSTemporaryDirectory() + "stocktake-fuzz-record-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()
    nonisolated(unsafe) static let store: HistoryStore? = try? HistoryStore(path: folder + "/history.sqlite")
}
