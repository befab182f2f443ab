import StocktakeHistory
import StocktakeModel
import StocktakePolicy

/// `stocktake history` as text: one line per run, oldest first, with the change in size on disk since the
/// run before it.
struct HistoryTable {
    let bundleIdentifier: String
    let runs: [HistoryRun]
    /// The run before the first shown (left out by `--limit`), which the first row's change is against.
    var before: HistoryRun? = nil

    var text: String {
        let header = [
            "Run", "App version", Figure.onDisk.name, Figure.documentsAndData.name, Figure.backedUp.name,
            Figure.purgeable.name, "Findings e/w/n", "Change", "Status",
        ]
        var rows: [[String]] = []
        for (index, run) in runs.enumerated() {
            let counts = [Severity.error, .warning, .note].map { String(run.findingsBySeverity[$0] ?? 0) }.joined(
                separator: "/")
            rows.append([
                ConsoleText.visible(run.runID), run.appVersion.map(ConsoleText.visible) ?? "-",
                ByteCount.format(run.onDisk.allocatedBytes), ByteCount.format(run.documentsAndData.allocatedBytes),
                ByteCount.format(run.backedUpBytes), ByteCount.format(run.purgeable.allocatedBytes), counts,
                (index == 0 ? before : runs[index - 1]).map {
                    run.onDiskChange(since: $0).text(bytes: ByteCount.format)
                } ?? "-", run.status == .clean ? "clean" : "policy failure",
            ])
        }
        // Text columns left-aligned, figures right-aligned.
        let rightAligned: Set<Int> = [2, 3, 4, 5, 6, 7]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var text = cells.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - cells[column].count)
                return rightAligned.contains(column) ? padding + cells[column] : cells[column] + padding
            }.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var text = "\(ConsoleText.visible(bundleIdentifier)): \(Plural.count(runs.count, "run")), oldest first; "
        text += "sizes are allocated bytes\n\n"
        text += line(header) + "\n"
        for row in rows { text += line(row) + "\n" }
        return text
    }

    static func noRunsMessage(bundleIdentifier: String, path: String, known: [String]) -> String {
        var message = "no runs recorded for '\(ConsoleText.visible(bundleIdentifier))' in \(path); "
        guard !known.isEmpty else { return message + "it holds no runs yet" }
        let shown = known.prefix(20).map { ConsoleText.visible($0) }.joined(separator: ", ")
        message += "it holds: " + shown + (known.count > 20 ? ", … (\(known.count - 20) more)" : "")
        return message
    }
}
