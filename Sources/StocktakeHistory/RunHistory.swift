import StocktakeModel

/// A history of runs: an SQLite file beside one machine's reports, or a PostgreSQL database many machines share. Both
/// honour one contract, held by one test suite: a run is unique by app, source and run id, and recording it again
/// replaces it; a run is recorded in one transaction (a reader sees all of it or none); writers in many processes at
/// once lose nothing and duplicate nothing. Not `Sendable`: one store object serves one thread.
package protocol RunHistory: AnyObject {
    /// How messages name the store: a file's path, or a server address without its password.
    var name: String { get }

    func record(_ run: HistoryRun) throws(HistoryError)

    /// The last `limit` runs of one series, oldest first (by run id, the run's UTC timestamp).
    func runs(of series: RunSeries, limit: Int) throws(HistoryError) -> [HistoryRun]

    func runIDs(of series: RunSeries) throws(HistoryError) -> [String]

    /// Every series with at least one run, sorted by app, then source.
    func series() throws(HistoryError) -> [RunSeries]
}

extension RunHistory {
    package func series(ofApp bundleIdentifier: String) throws(HistoryError) -> [RunSeries] {
        try series().filter { $0.bundleIdentifier == bundleIdentifier }
    }

    /// What every writer records through, so that every store takes the same runs.
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

    package func bundleIdentifiers() throws(HistoryError) -> [String] {
        var apps: [String] = []
        for series in try series() where apps.last != series.bundleIdentifier { apps.append(series.bundleIdentifier) }
        return apps
    }
}
