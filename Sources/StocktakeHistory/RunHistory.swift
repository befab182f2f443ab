import StocktakeModel

/// A history of runs: the SQLite file beside one machine's reports (`HistoryStore`), or a PostgreSQL database many
/// machines share. Both keep the same schema and honour the same contract, which one test suite holds them to:
///
/// - A run is unique by app, source and run id. Recording it again replaces it (a retried `record`, a re-run of
///   the same night) and never adds a second row.
/// - A run is recorded in one transaction: a reader sees all of it or none of it, a writer that dies leaves none.
/// - Writers in many processes at once lose nothing and duplicate nothing.
///
/// Not `Sendable`: one store object serves one thread; other processes open their own.
package protocol RunHistory: AnyObject {
    /// How messages name the store: a file's path, or a server address without its password.
    var name: String { get }

    /// Records one run (replacing the run of the same app, source and run id).
    func record(_ run: HistoryRun) throws(HistoryError)

    /// The last `limit` runs of one series, oldest first (by run id, the run's UTC timestamp).
    func runs(of series: RunSeries, limit: Int) throws(HistoryError) -> [HistoryRun]

    /// Every run id recorded for one series, oldest first.
    func runIDs(of series: RunSeries) throws(HistoryError) -> [String]

    /// Every series with at least one run, sorted by app, then source.
    func series() throws(HistoryError) -> [RunSeries]
}

extension RunHistory {
    /// The series of one app, sorted by source.
    package func series(ofApp bundleIdentifier: String) throws(HistoryError) -> [RunSeries] {
        try series().filter { $0.bundleIdentifier == bundleIdentifier }
    }

    /// Records `run` once it passes `RecordedValues` (what every writer records through, so that every store takes
    /// the same runs), else says what is wrong with it.
    package func recordChecked(_ run: HistoryRun) throws(HistoryError) {
        if let problem = run.problem {
            throw HistoryError(
                store: name, kind: .failed,
                message:
                    "will not record run \(VisibleText.quoted(run.runID)) of \(VisibleText.quoted(run.bundleIdentifier)): \(problem)"
            )
        }
        try record(run)
    }

    /// Every app with at least one run, sorted.
    package func bundleIdentifiers() throws(HistoryError) -> [String] {
        var apps: [String] = []
        for series in try series() where apps.last != series.bundleIdentifier { apps.append(series.bundleIdentifier) }
        return apps
    }
}
