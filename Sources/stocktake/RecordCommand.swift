import ArgumentParser
import Foundation
import StocktakeFiles
import StocktakeHistory
import StocktakeModel
import StocktakeNightly
import StocktakeRendering

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a report an audit wrote as one run in a history (a CI job that audited once, say).",
        discussion: """
            The run is the report's app, --source and run id (default: the report's time, 2026-11-21T020000Z). \
            Recording it again replaces it: a retried step never adds a second run. Exit status: 0 recorded, \
            1 not (the report unreadable, the history unreachable, refused or newer than this stocktake), 64 usage error.
            """)

    @Argument(help: "The report.json (or the folder holding it) that `stocktake audit` wrote.")
    var report: String

    @OptionGroup var shared: HistoryOptions

    @Option(name: .customLong("run-id"), help: "The run's id (default: the report's generatedAt, without colons).")
    var runID: String?

    @Option(
        name: .customLong("report-url"),
        help: "Where the index's readers find the report folder (an http(s) address, such as the CI job's artifacts).")
    var reportURL: String?

    @Option(help: "How long the audit took, for the metrics.")
    var durationSeconds: Double?

    @Option(
        help:
            "The run is recorded as a policy failure for a finding at or above this severity: error, warning or never.")
    var failOn: FailOn = .error

    @Flag(help: "The run is a policy failure when the content checks left a file unread, as the audit's flag decides.")
    var requireContentCoverage = false

    @Option(
        help: "Also write the run's figures as OpenMetrics text to this file, atomically (one file per app and source)."
    )
    var metricsFile: String?

    func validate() throws {
        try require(shared.history != nil, "give --history: a postgresql:// URL, or the SQLite file to record into")
        try require(
            durationSeconds.map { $0 >= 0 && $0.isFinite } ?? true,
            "--duration-seconds must be a number of seconds, 0 or more")
    }

    func run() throws {
        let started = ContinuousClock.now
        var options = RecordedReport.Options()
        options.source = shared.source
        options.runID = runID
        options.reportURL = reportURL
        options.recordedBy = MachineName.current
        options.durationSeconds = durationSeconds
        options.failOn = failOn.severity
        options.requiresContentCoverage = requireContentCoverage
        if let metricsFile {
            let folder = report.hasSuffix(".json") ? Paths.parent(of: report) : report
            let kept =
                [(path: folder, what: "the report's folder")]
                + (shared.isServer ? [] : [(path: shared.history ?? "", what: "the history")])
            if let problem = MetricsFilePlace.problem(metricsFile, kept: kept) {
                throw CommandFailure(.couldNotRun, problem)
            }
        }
        let run = try attempt { try RecordedReport.run(reportAt: report, options) }
        var failure: String?
        do { try shared.open(fallback: "", create: true).recordChecked(run) } catch {
            failure = error.description
        }
        if let metricsFile {
            let job = RunMetrics.Job(
                name: "record", durationSeconds: (ContinuousClock.now - started).inSeconds,
                finishedAt: Date().timeIntervalSince1970, failures: failure == nil ? 0 : 1,
                exitStatus: failure == nil ? 0 : 1, app: run.bundleIdentifier, source: run.source)
            // A run the history did not take is not reported as the latest success: only the failed job is.
            let runs = failure == nil ? [run] : []
            do { try AtomicFile.write(Array(RunMetrics(runs: runs, job: job).render().utf8), to: metricsFile) } catch {
                failure = [failure, "\(error)"].compactMap { $0 }.joined(separator: "; ")
            }
        }
        if let failure { throw CommandFailure(.couldNotRun, failure) }
    }
}
