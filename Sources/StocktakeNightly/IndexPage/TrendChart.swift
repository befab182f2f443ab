import StocktakeHistory
import StocktakeModel
import StocktakeRendering

/// Allocated bytes on disk, run by run, as an inline SVG bar chart; each bar's `<title>` is its tooltip and text.
enum TrendChart {
    private static let width = 600
    private static let height = 80
    /// Room above the tallest bar, so it does not touch the frame.
    private static let headroom = 6
    private static let minimumSlots = 12
    /// Bars drawn at most (the latest runs): each stays at least 1 unit wide with its gap, whatever `--limit` asks.
    static let maximumBars = 200

    static func svg(_ allRuns: [HistoryRun], label: String) -> HTML {
        let runs = allRuns.suffix(maximumBars)
        var html: HTML =
            "<svg class=\"trend\" viewBox=\"0 0 \(width) \(height)\" preserveAspectRatio=\"none\" role=\"img\" "
        html += "aria-label=\"\(label)\">"
        let highest = runs.map(\.onDisk.allocatedBytes).max() ?? 0
        guard highest > 0 else { return html + "</svg>\n" }
        // In tenths of a unit. A few runs keep a bar's normal width, right-aligned: the latest is always at
        // the right edge and a young history does not look like two giant blocks.
        let slots = max(runs.count, minimumSlots)
        let slot = width * 10 / slots
        let gap = max(10, slot / 6)
        let offset = (slots - runs.count) * slot
        for (index, run) in runs.enumerated() {
            let value = max(0, run.onDisk.allocatedBytes)
            let full = (height - headroom) * 10
            let barHeight = value == 0 ? 0 : max(10, Int((Double(value) / Double(highest) * Double(full)).rounded()))
            // The latest is the darker shade of its own colour, failed or not, so it stands out either way.
            let latest = index == runs.count - 1
            let colour =
                run.status == .policyFailure
                ? (latest ? IndexStyle.latestFailureColour : IndexStyle.failureColour)
                : (latest ? IndexStyle.latestColour : IndexStyle.barColour)
            html += "<rect x=\"\(HTMLFormatting.decimal(tenths: offset + index * slot + gap / 2))\" "
            html += "y=\"\(HTMLFormatting.decimal(tenths: height * 10 - barHeight))\" "
            html +=
                "width=\"\(HTMLFormatting.decimal(tenths: slot - gap))\" height=\"\(HTMLFormatting.decimal(tenths: barHeight))\" "
            html += "fill=\"\(colour)\"><title>\(visible: run.runID): \(ByteCount.format(value))"
            html += run.status == .policyFailure ? " (policy failure)" : .empty
            html += "</title></rect>"
        }
        return html + "</svg>\n"
    }

    /// The chart with its axes as text around it: text inside the SVG would stretch with it.
    static func figure(_ runs: [HistoryRun], label: String) -> HTML {
        let highest = runs.map(\.onDisk.allocatedBytes).max() ?? 0
        var html: HTML = "<div class=\"trend-figure\"><div class=\"trend-y\" aria-hidden=\"true\">"
        html +=
            "<span>\(ByteCount.format(max(0, highest)))</span><span class=\"trend-y-name\">on disk</span><span>0</span></div>"
        html += svg(runs, label: label)
        return html
            + "<div class=\"trend-x\" aria-hidden=\"true\"><span>oldest run</span><span>latest run</span></div></div>\n"
    }

    static func caption(_ runs: [HistoryRun]) -> HTML {
        guard let latest = runs.last,
            let highest = runs.max(by: { $0.onDisk.allocatedBytes < $1.onDisk.allocatedBytes })
        else {
            return "No runs yet."
        }
        var text: HTML =
            "Oldest on the left, latest (darker) on the right. Highest \(HTMLPieces.size(highest.onDisk.allocatedBytes)) "
        text += "(\(visible: highest.runID)); latest \(HTMLPieces.size(latest.onDisk.allocatedBytes))."
        if runs.suffix(maximumBars).contains(where: { $0.status == .policyFailure }) {
            text += " Orange: a run that failed the policy."
        }
        if runs.count > maximumBars { text += " The chart shows the last \(maximumBars) of \(runs.count) runs." }
        return text
    }
}
