import Foundation
import StocktakeHistory
import StocktakeNightly
import TestSupport
import Testing

/// A history that answers for some apps and fails for others is a problem the night names, never a silent gap:
/// an app left out of the metrics file, or runs that cannot be checked against the store.
@Suite struct NightlyHistoryFailureTests {
    /// The store beside the reports, except that reading `failing`'s runs (or run ids) fails.
    final class PartlyFailing: RunHistory {
        let store: HistoryStore
        let failing: String
        init(_ store: HistoryStore, failing: String) {
            self.store = store
            self.failing = failing
        }
        var name: String { store.name }
        func record(_ run: HistoryRun) throws(HistoryError) { try store.record(run) }
        func runs(of series: RunSeries, limit: Int) throws(HistoryError) -> [HistoryRun] {
            try refuse(series)
            return try store.runs(of: series, limit: limit)
        }
        func runIDs(of series: RunSeries) throws(HistoryError) -> [String] {
            try refuse(series)
            return try store.runIDs(of: series)
        }
        func series() throws(HistoryError) -> [RunSeries] { try store.series() }
        private func refuse(_ series: RunSeries) throws(HistoryError) {
            guard series.bundleIdentifier == failing else { return }
            throw HistoryError(store: name, kind: .failed, message: "could not be read: disk I/O error")
        }
    }

    static let apps = ["com.example.alpha", "com.example.beta"]

    /// Night `day` over the inbox into `tree`'s reports folder, through a history failing for `failing` when given.
    static func night(_ tree: TemporaryTree, day: Int, failing: String? = nil) throws -> NightlyOutcome {
        var request = NightlyRequest(
            inboxPath: tree.path("inbox"), reportsPath: tree.path("reports"),
            now: Date(timeIntervalSince1970: 1_795_226_400 + Double(day) * 86_400))
        request.metricsFile = tree.path("stocktake.prom")
        if let failing {
            let path = HistoryStore.path(inReports: tree.path("reports"))
            request.openHistory = { () throws(HistoryError) in
                PartlyFailing(try HistoryStore(path: path), failing: failing)
            }
        }
        return try NightlyJob.run(request)
    }

    @Test func anAppTheHistoryCannotGiveIsNamedNotDroppedFromTheMetrics() throws {
        let tree = try TemporaryTree("nightly-history")
        for app in Self.apps {
            try tree.write("inbox/\(app)/Documents/notes.txt", string: "hello\n")
            try tree.write(
                "inbox/\(app)/Library/Preferences/\(app).plist",
                string: "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>")
        }
        #expect(try Self.night(tree, day: 0).problems == [])
        let metrics = try String(contentsOfFile: tree.path("stocktake.prom"), encoding: .utf8)
        #expect(Self.apps.allSatisfy { metrics.contains($0) })

        // The next night audits nothing new (the exports are unchanged) and reads every app's latest run back.
        let outcome = try Self.night(tree, day: 1, failing: "com.example.beta")
        #expect(outcome.exitStatus == 1)
        #expect(outcome.problems.contains { $0.contains("com.example.beta: left out of the metrics file") })
        // The night before's runs are checked against the store: that the check failed is said, once per app.
        #expect(
            outcome.problems.contains {
                $0.contains("com.example.beta: its runs cannot be checked against the history store")
            })
        #expect(!outcome.problems.contains { $0.contains("com.example.alpha") })
        let after = try String(contentsOfFile: tree.path("stocktake.prom"), encoding: .utf8)
        #expect(after.contains("com.example.alpha") && !after.contains("com.example.beta"))
    }
}
