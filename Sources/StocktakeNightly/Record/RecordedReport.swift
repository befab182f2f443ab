import StocktakeAudit
import StocktakeFiles
import StocktakeHistory
import StocktakeModel
import StocktakeReport

/// `stocktake record`: a report an audit already wrote, made into the history's run. Recording the same report again
/// makes the same run (same app, source and run id), so a retried CI step replaces its row instead of adding one.
package enum RecordedReport {
    /// What a recorded run is, besides its report.
    package struct Options: Sendable {
        package var source = RunSeries.defaultSource
        /// Default: the report's `generatedAt` in folder form (`2026-11-21T020000Z`).
        package var runID: String? = nil
        /// Where the report folder can be read by the index's reader (a CI job's artifacts); default: its path here.
        package var reportURL: String? = nil
        package var recordedBy: String? = nil
        package var durationSeconds: Double? = nil
        /// The lowest severity that makes the run a policy failure (nil: only an exceeded budget does).
        package var failOn: Severity? = .error

        package init() {}
    }

    /// The run `path` (a report.json, or the folder holding it) makes. Throws a message a person can act on.
    package static func run(reportAt path: String, _ options: Options) throws(RecordError) -> HistoryRun {
        let snapshot: ReportSnapshot
        do {
            snapshot = try ReportReader.read(path: path)
        } catch {
            throw RecordError(message: "\(error)")
        }
        let runID = options.runID ?? snapshot.provenance.generatedAt.replacingOccurrences(of: ":", with: "")
        if let problem = problem(withRunID: runID) { throw RecordError(message: problem) }
        if let url = options.reportURL, !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            throw RecordError(message: "--report-url must be an http:// or https:// address")
        }
        let folder = path.hasSuffix(".json") ? Paths.parent(of: path) : path
        return HistoryRun(
            bundleIdentifier: ReportPaths.appFolderName(snapshot.provenance.bundleIdentifier), runID: runID,
            snapshot: snapshot, status: isPolicyFailure(snapshot, failingAt: options.failOn) ? .policyFailure : .clean,
            source: options.source, recordedBy: options.recordedBy,
            reportLocation: options.reportURL ?? ResolvedPath.of(folder), durationSeconds: options.durationSeconds)
    }

    /// As `stocktake audit --fail-on` decides it: a finding at or above the threshold, or an exceeded budget.
    package static func isPolicyFailure(_ snapshot: ReportSnapshot, failingAt threshold: Severity?) -> Bool {
        snapshot.budgets.contains(where: \.exceeded)
            || (threshold.map { threshold in snapshot.findings.contains { $0.severity >= threshold } } ?? false)
    }

    /// Why `runID` cannot name a run: it sorts the app's runs and names a folder in the nightly layout.
    static func problem(withRunID runID: String) -> String? {
        guard !runID.isEmpty, runID.utf8.count <= 128 else { return "a run id has 1 to 128 characters" }
        guard runID != ".", runID != "..",
            runID.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\") })
        else { return "a run id is printable ASCII without spaces or slashes (such as 2026-11-21T020000Z)" }
        return nil
    }
}

/// Why a report could not be recorded.
package struct RecordError: Error, Sendable, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
