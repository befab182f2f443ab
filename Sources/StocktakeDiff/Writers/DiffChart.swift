import StocktakeModel
import StocktakeRendering

/// Diverging bars: each location's change in allocated bytes, growth to the right of zero and shrink to the
/// left, each labelled with its signed size so colour is never the only cue. Plain boxes rather than SVG, so
/// the labels keep the page's text size at any width (an SVG scaled to a phone shrank them to 3 px). The
/// locations table below carries the same numbers for screen readers.
struct DiffChart {
    let rows: [(location: Location, change: SizeChange)]

    func render() -> HTML {
        let shown = rows.filter { $0.change.oldOrZero != .zero || $0.change.newOrZero != .zero }
        let largest = shown.map(\.change.allocatedDelta.magnitude).max() ?? 0
        guard !shown.isEmpty else { return HTMLDiffPieces.empty("Both reports are empty.") }
        var html: HTML = "<p class=\"legend\"><span>\(HTMLPieces.swatch(ReportPalette.growth))Growth (+)</span>"
        html += "<span>\(HTMLPieces.swatch(ReportPalette.shrink))Shrink (-)</span></p>\n"
        html += "<div class=\"dchart\" aria-hidden=\"true\">\n"
        for row in shown { html += bar(row.location, row.change, largest: largest) }
        return html + "</div>\n"
    }

    private func bar(_ location: Location, _ change: SizeChange, largest: UInt64) -> HTML {
        let delta = change.allocatedDelta
        let label = ByteCount.signed(delta)
        // Tenths of a percent of the half; a change too small to see still gets a sliver, so it is not mistaken for none.
        let tenths =
            delta == 0 || largest == 0 ? 0 : max(5, Int((Double(delta.magnitude) / Double(largest) * 1000).rounded()))
        let percent = Percent.change(old: change.oldOrZero.allocatedBytes, new: change.newOrZero.allocatedBytes)
        let bar: HTML =
            tenths == 0
            ? .empty
            : "<span class=\"dc-bar\" style=\"width:\(HTMLFormatting.decimal(tenths: tenths))%;background:"
                + "\(delta > 0 ? ReportPalette.growth : ReportPalette.shrink)\" title=\"\(label) (\(percent))\"></span>"
        let value: HTML = "<span class=\"dc-value\">\(label)</span>"
        var html: HTML = "<div class=\"dc-row\"><span class=\"dc-name\">\(location.title)</span>"
        html += "<span class=\"dc-neg\">\(delta < 0 ? value + bar : .empty)</span>"
        html += "<span class=\"dc-pos\">\(delta >= 0 ? bar + value : .empty)</span></div>\n"
        return html
    }
}
