import Foundation
import StocktakeFiles
import StocktakeHistory
import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// Writes `index.html` from a history, in the nightly job or anywhere (`stocktake index`).
package struct IndexBuilder {
    let outputPath: String
    let history: any RunHistory
    let trendLength: Int
    /// The run `<app>/latest` names, preferred for `localSource`: the newest run id may be a recovered older run.
    var localLatest: ((String) -> String?)? = nil
    var localSource: String? = nil
    let showsMachines: Bool
    let thisMachine: String?

    package init(
        outputPath: String, history: any RunHistory, trendLength: Int = 30, showsMachines: Bool, thisMachine: String?
    ) {
        (self.outputPath, self.history, self.trendLength) = (outputPath, history, trendLength)
        (self.showsMachines, self.thisMachine) = (showsMachines, thisMachine)
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
            let named = series.source == localSource ? localLatest?(series.bundleIdentifier) : nil
            let latest = runs.last { $0.runID == named } ?? newest
            let link = { ReportLink.to($0, of: latest, fromPageIn: outputPath, thisMachine: thisMachine) }
            return NightlyIndex.App(
                bundleIdentifier: series.bundleIdentifier, source: series.source, showsMachine: showsMachines,
                runs: runs, latestReport: link("report.html"), latestDiff: link("diff.html"),
                runBefore: fetched.count > runs.count ? fetched.first : nil)
        }
        let page = NightlyIndex(generatedAt: generatedAt, apps: apps, failures: failures, unchanged: skipped)
        try AtomicFile.write(NightlyIndexPage.render(page), to: Paths.join(outputPath, "index.html"))
    }
}
