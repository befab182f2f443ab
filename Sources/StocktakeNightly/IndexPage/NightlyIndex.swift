import StocktakeHistory

/// What the nightly index page shows: every app's recent runs, and the inputs that could not be audited.
struct NightlyIndex: Sendable {
    /// When the nightly job wrote the page (ISO 8601, UTC).
    let generatedAt: String
    let apps: [App]
    let failures: [NightlyOutcome.Failure]
    /// Inbox entries unchanged since an earlier night audited them into a run (it may have been pruned since).
    var unchanged: [NightlyOutcome.Skipped] = []

    struct App: Sendable {
        let bundleIdentifier: String
        /// The source of these runs; shown beside the app when an app has several, or one that is not the default.
        var source: String = RunSeries.defaultSource
        /// Whether the page names the machine that recorded the latest run (a history many machines share).
        var showsMachine = false
        /// The recent runs (the last 30), oldest first; the last is the one just audited.
        let runs: [HistoryRun]
        let latestReport: ReportLink?
        /// The diff of the latest run against the previous one, when there is one and it can be reached.
        let latestDiff: ReportLink?
        /// The run just before the first of `runs`, so the oldest row shown still has its change.
        var runBefore: HistoryRun? = nil

        var latest: HistoryRun? { runs.last }

        var previous: HistoryRun? { runs.dropLast().last }
    }
}
