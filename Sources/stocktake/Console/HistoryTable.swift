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
        // Text columns left-aligned, figures right-aligned.
        var table = TextTable([.left, .left, .right, .right, .right, .right, .right, .right, .left])
        table.add([
            "Run", "App version", Figure.onDisk.name, Figure.documentsAndData.name, Figure.backedUp.name,
            Figure.purgeable.name, "Findings e/w/n", "Change", "Status",
        ])
        for (index, run) in runs.enumerated() {
            let counts = [Severity.error, .warning, .note].map { String(run.findingsBySeverity[$0] ?? 0) }
            table.add([
                ConsoleText.visible(run.runID), run.appVersion.map(ConsoleText.visible) ?? "-",
                ByteCount.format(run.onDisk.allocatedBytes), ByteCount.format(run.documentsAndData.allocatedBytes),
                ByteCount.format(run.backedUpBytes), ByteCount.format(run.purgeable.allocatedBytes),
                counts.joined(separator: "/"),
                (index == 0 ? before : runs[index - 1]).map {
                    run.onDiskChange(since: $0).text(bytes: ByteCount.format)
                } ?? "-", run.status == .clean ? "clean" : "policy failure",
            ])
        }
        var text = "\(ConsoleText.visible(bundleIdentifier)): \(Plural.count(runs.count, "run")), oldest first; "
        text += "sizes are allocated bytes\n\n"
        return text + table.lines(indent: "").map { $0 + "\n" }.joined()
    }

    static func noRunsMessage(bundleIdentifier: String, path: String, known: [String]) -> String {
        var message = "no runs recorded for '\(ConsoleText.visible(bundleIdentifier))' in \(path); "
        guard !known.isEmpty else { return message + "it holds no runs yet" }
        let shown = known.prefix(20).map { ConsoleText.visible($0) }.joined(separator: ", ")
        message += "it holds: " + shown + (known.count > 20 ? ", … (\(known.count - 20) more)" : "")
        return message
    }
}
