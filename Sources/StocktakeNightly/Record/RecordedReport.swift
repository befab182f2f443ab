import StocktakeAudit
import StocktakeFiles
import StocktakeHistory
import StocktakeModel
import StocktakeReport

/// `stocktake record`: a report made into a run; the same report makes the same run, so a retried CI step replaces it.
package enum RecordedReport {
    package struct Options: Sendable {
        package var source = RunSeries.defaultSource
        /// Default: the report's `generatedAt` in folder form (`2026-11-21T020000Z`).
        package var runID: String? = nil
        /// Where the report folder can be read by the index's reader (a CI job's artifacts); default: its path here.
        package var reportURL: String? = nil
        package var recordedBy: String? = nil
        package var durationSeconds: Double? = nil
        /// The lowest severity that makes the run a policy failure, an exceeded budget too (nil: nothing does).
        package var failOn: Severity? = .error
        /// `--require-content-coverage`: a file the content checks did not read whole fails the run too.
        package var requiresContentCoverage = false

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
        if let url = options.reportURL, let problem = ReportAddress.problem(url) {
            throw RecordError(message: "--report-url: \(problem)")
        }
        if let runID = options.runID, let problem = RecordedValues.problem(withRunID: runID) {
            throw RecordError(message: "--run-id: \(problem)")
        }
        if let problem = RecordedValues.problem(withGeneratedAt: snapshot.provenance.generatedAt) {
            throw RecordError(message: "\(path): cannot be recorded: its \(problem)")
        }
        let runID = options.runID ?? snapshot.provenance.generatedAt.replacingOccurrences(of: ":", with: "")
        let folder = path.hasSuffix(".json") ? Paths.parent(of: path) : path
        let run = HistoryRun(
            bundleIdentifier: ReportPaths.appFolderName(snapshot.provenance.bundleIdentifier), runID: runID,
            snapshot: snapshot,
            status: isPolicyFailure(
                snapshot, failingAt: options.failOn, requiringCoverage: options.requiresContentCoverage)
                ? .policyFailure : .clean,
            source: options.source, recordedBy: options.recordedBy,
            reportLocation: options.reportURL ?? ResolvedPath.of(folder), durationSeconds: options.durationSeconds)
        // A report.json is untrusted input: what any history would refuse, or any reader trip on, is refused here.
        if let problem = run.problem { throw RecordError(message: "\(path): cannot be recorded: \(problem)") }
        return run
    }

    /// As the audit's gates decide it: a finding at or above the threshold or an exceeded budget (nothing with no
    /// threshold, `never`), and, when coverage is required, a file the content checks did not read whole.
    package static func isPolicyFailure(
        _ snapshot: ReportSnapshot, failingAt threshold: Severity?, requiringCoverage: Bool
    ) -> Bool {
        if requiringCoverage && snapshot.contentCoverageComplete == false { return true }
        guard let threshold else { return false }
        return snapshot.findings.contains { $0.severity >= threshold } || snapshot.budgets.contains(where: \.exceeded)
    }
}

package struct RecordError: Error, Sendable, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
