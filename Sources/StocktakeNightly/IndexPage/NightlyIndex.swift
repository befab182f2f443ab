import StocktakeHistory

/// What the nightly index page shows: every app's recent runs, and the inputs that could not be audited.
struct NightlyIndex: Sendable {
    /// When the nightly job wrote the page (ISO 8601, UTC).
    let generatedAt: String
    /// In the order the page lists them.
    let apps: [App]
    let failures: [Failure]
    /// Inbox entries unchanged since an earlier night audited them, so not audited again.
    let unchanged: [Unchanged]

    init(generatedAt: String, apps: [App], failures: [Failure], unchanged: [Unchanged] = []) {
        self.generatedAt = generatedAt
        self.apps = apps
        self.failures = failures
        self.unchanged = unchanged
    }

    struct Unchanged: Sendable {
        /// The inbox entry's name, as found.
        let input: String
        /// `<app folder>/<run id>`: the run it was audited into (it may have been pruned since).
        let run: String
    }

    struct App: Sendable {
        let bundleIdentifier: String
        /// The source of these runs; shown beside the app when an app has several, or one that is not the default.
        var source: String = RunSeries.defaultSource
        /// Whether the page names the machine that recorded the latest run (a history many machines share).
        var showsMachine = false
        /// The recent runs (the last 30), oldest first; the last is the one just audited.
        let runs: [HistoryRun]
        /// The latest report, when the page's reader can reach it.
        let latestReport: ReportLink?
        /// The diff of the latest run against the previous one, when there is one and it can be reached.
        let latestDiff: ReportLink?
        /// The run the latest was compared with; when nil, the run before the latest in `runs`.
        let previousRunID: String?
        /// The run just before the first of `runs`, so the oldest row shown still has its change.
        var runBefore: HistoryRun? = nil

        var latest: HistoryRun? { runs.last }

        /// The run the latest is compared with on the page.
        var previous: HistoryRun? {
            if let previousRunID, let run = runs.last(where: { $0.runID == previousRunID }) { return run }
            return runs.dropLast().last
        }
    }

    /// An inbox entry the nightly job could not audit.
    struct Failure: Sendable {
        /// The inbox entry's name, as found.
        let input: String
        let message: String
    }
}
