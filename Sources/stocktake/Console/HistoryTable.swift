import StocktakeHistory
import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// `stocktake history` as text: one line per run, oldest first, with the change in size on disk since the
/// run before it.
struct HistoryTable {
    let bundleIdentifier: String
    let runs: [HistoryRun]
    /// The run before the first shown (left out by `--limit`), which the first row's change is against.
    var before: HistoryRun? = nil

    var text: String {
        var table = TextTable([.left, .left, .right, .right, .right, .right, .right, .right, .left])
        table.add([
            "Run", "App version", Figure.onDisk.name, Figure.documentsAndData.name, Figure.backedUp.name,
            Figure.purgeable.name, "Findings e/w/n", "Change", "Status",
        ])
        for (index, run) in runs.enumerated() {
            let counts = [Severity.error, .warning, .note].map { String(run.findingsBySeverity[$0] ?? 0) }
            table.add([
                Terminal.visible(run.runID), run.appVersion.map(Terminal.visible) ?? "-",
                ByteCount.format(run.onDisk.allocatedBytes), ByteCount.format(run.documentsAndData.allocatedBytes),
                ByteCount.format(run.backedUpBytes), ByteCount.format(run.purgeable.allocatedBytes),
                counts.joined(separator: "/"),
                (index == 0 ? before : runs[index - 1]).map {
                    run.onDiskChange(since: $0).text(bytes: ByteCount.format)
                } ?? "-", run.status == .clean ? "clean" : "policy failure",
            ])
        }
        var text = "\(Terminal.visible(bundleIdentifier)): \(Plural.count(runs.count, "run")), oldest first; "
        text += "sizes are allocated bytes\n\n"
        return text + table.lines(indent: "").map { $0 + "\n" }.joined()
    }

    /// Why there is nothing to show: the app's runs come from other sources, or the history holds other apps or none.
    static func noRunsMessage(_ series: RunSeries, in store: any RunHistory) throws(HistoryError) -> String {
        let app = Terminal.visible(series.bundleIdentifier)
        let sources = try store.series(ofApp: series.bundleIdentifier).map { Terminal.visible($0.source) }
        guard sources.isEmpty else {
            return "no runs recorded for '\(app)' from source '\(series.source)' in \(store.name); its runs come from: "
                + sources.joined(separator: ", ") + " (pass --source)"
        }
        let known = try store.bundleIdentifiers()
        var message = "no runs recorded for '\(app)' in \(store.name); "
        guard !known.isEmpty else { return message + "it holds no runs yet" }
        let shown = known.prefix(20).map { Terminal.visible($0) }.joined(separator: ", ")
        message += "it holds: " + shown + (known.count > 20 ? ", … (\(known.count - 20) more)" : "")
        return message
    }
}
