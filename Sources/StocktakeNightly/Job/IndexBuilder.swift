import Foundation
import StocktakeFiles
import StocktakeHistory
import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// Writes `index.html` from a history: every app (per source), its latest run, the change since the run before, a
/// trend over the last runs, and links to the latest report and diff wherever the page's reader can reach them.
/// The nightly job writes it into its reports folder; `stocktake index` anywhere, from a history many machines share.
package struct IndexBuilder {
    /// The folder the page is written into; links are relative to it.
    let outputPath: String
    let history: any RunHistory
    let trendLength: Int
    /// The run `<app>/latest` names in the nightly job's own reports folder, preferred as an app's latest run for
    /// `localSource` (the newest run id may be a recovered older run). Nil for `stocktake index`.
    var localLatest: ((String) -> String?)? = nil
    var localSource: String? = nil
    /// Whether each app names the machine that recorded its latest run (for a history many machines share).
    let showsMachines: Bool
    /// This machine's name: only its own runs' folders are looked for on this disk.
    let thisMachine: String?

    package init(
        outputPath: String, history: any RunHistory, trendLength: Int = 30, showsMachines: Bool, thisMachine: String?
    ) {
        self.outputPath = outputPath
        self.history = history
        self.trendLength = trendLength
        self.showsMachines = showsMachines
        self.thisMachine = thisMachine
    }

    package func write(
        generatedAt: String, failures: [NightlyOutcome.Failure] = [], skipped: [NightlyOutcome.Skipped] = []
    ) throws {
        let apps = try history.series().compactMap { series -> NightlyIndex.App? in
            // One more than the trend shows: the oldest row's change is against the run before it.
            let fetched = try history.runs(of: series, limit: trendLength.saturatingAdd(1))
            let runs = Array(fetched.suffix(trendLength))
            guard let newest = runs.last else { return nil }
            // The links go to the run `latest` names, when it is among these; otherwise to the newest recorded run.
            var latest = newest
            if series.source == localSource, let named = localLatest?(series.bundleIdentifier),
                let run = runs.last(where: { $0.runID == named })
            {
                latest = run
            }
            return NightlyIndex.App(
                bundleIdentifier: series.bundleIdentifier, source: series.source, showsMachine: showsMachines,
                runs: runs,
                latestReport: ReportLink.to(
                    "report.html", of: latest, fromPageIn: outputPath, thisMachine: thisMachine),
                latestDiff: ReportLink.to("diff.html", of: latest, fromPageIn: outputPath, thisMachine: thisMachine),
                runBefore: fetched.count > runs.count ? fetched.first : nil)
        }
        let page = NightlyIndex(
            generatedAt: generatedAt, apps: apps, failures: failures, unchanged: skipped)
        try AtomicFile.write(NightlyIndexPage.render(page), to: Paths.join(outputPath, "index.html"))
    }
}
