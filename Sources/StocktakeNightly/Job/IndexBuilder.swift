import Foundation
import StocktakeFiles
import StocktakeRendering
import StocktakeReport

/// Rebuilds `REPORTS/index.html` from the history store: every app, its latest run, the change since
/// the run before, a trend over the last runs, links to the latest report and diff.
struct IndexBuilder {
    let folder: ReportsFolder
    let history: HistoryStore
    let trendLength: Int

    func write(generatedAt: String, failures: [NightlyOutcome.Failure], skipped: [NightlyOutcome.Skipped]) throws {
        let apps = try history.bundleIdentifiers().compactMap { app -> NightlyIndex.App? in
            // One more than the trend shows: the oldest row's change is against the run before it.
            let fetched = try history.runs(bundleIdentifier: app, limit: trendLength + 1)
            let runs = Array(fetched.suffix(trendLength))
            // The run `latest` names; failing that (no link yet, or a broken one), the newest recorded run.
            guard let latest = folder.latestRunID(app) ?? runs.last?.runID else { return nil }
            // Raw names: the page percent-encodes each path segment itself.
            let base = Paths.join(app, latest)
            let hasDiff = FileManager.default.fileExists(atPath: Paths.join(folder.appFolder(app), latest, "diff.html"))
            return NightlyIndex.App(
                bundleIdentifier: app, runs: runs, latestReportHref: base + "/report.html",
                latestDiffHref: hasDiff ? base + "/diff.html" : nil, previousRunID: runs.dropLast().last?.runID,
                runBefore: fetched.count > runs.count ? fetched.first : nil)
        }
        let page = NightlyIndex(
            generatedAt: generatedAt, apps: apps,
            failures: failures.map { NightlyIndex.Failure(input: $0.input, message: $0.message) },
            unchanged: skipped.map { NightlyIndex.Unchanged(input: $0.input, run: $0.run) })
        try AtomicFile.write(NightlyIndexPage.render(page), to: folder.path + "/index.html")
    }
}
