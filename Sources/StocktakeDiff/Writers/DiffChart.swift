import StocktakeModel
import StocktakeRendering

/// Diverging bars in inline SVG: each location's change in allocated bytes, growth to the right of zero
/// and shrink to the left, each labelled with its signed size so colour is never the only cue. The
/// locations table below carries the same numbers for screen readers.
struct DiffChart {
    let rows: [(location: Location, change: SizeChange)]

    private static let width = 1000
    private static let zero = 600
    /// The longest bar, in viewBox units (room is left for the value label on either side).
    private static let reach = 290
    private static let rowHeight = 26
    /// Where the location names end (right-aligned), clear of the longest shrink bar and its label.
    private static let labelEdge = 170

    func render() -> String {
        let shown = rows.filter { $0.change.oldOrZero != .zero || $0.change.newOrZero != .zero }
        let largest = shown.map(\.change.allocatedDelta.magnitude).max() ?? 0
        guard !shown.isEmpty else { return HTMLDiffPieces.empty("Both reports are empty.") }
        let height = shown.count * Self.rowHeight + 8
        var html = "<p class=\"legend\"><span>\(HTMLPieces.swatch(ReportPalette.growth))Growth (+)</span>"
        html += "<span>\(HTMLPieces.swatch(ReportPalette.shrink))Shrink (-)</span></p>\n"
        html += "<svg class=\"diff-chart\" viewBox=\"0 0 \(Self.width) \(height)\" role=\"img\" "
        html += "aria-label=\"Change in allocated bytes by location; the table below lists the same numbers.\">"
        html += "<line x1=\"\(Self.zero)\" y1=\"0\" x2=\"\(Self.zero)\" y2=\"\(height)\" stroke=\"#9ca3af\" stroke-width=\"1\"></line>"
        for (index, row) in shown.enumerated() {
            html += bar(row.location, row.change, top: 4 + index * Self.rowHeight, largest: largest)
        }
        return html + "</svg>\n"
    }

    private func bar(_ location: Location, _ change: SizeChange, top: Int, largest: UInt64) -> String {
        let delta = change.allocatedDelta
        let label = HTMLEscaping.escape(DiffSigned.bytes(delta, HTMLFormatting.bytes))
        let middle = top + Self.rowHeight / 2 + 4
        var html = "<text x=\"\(Self.labelEdge)\" y=\"\(middle)\" text-anchor=\"end\">\(HTMLEscaping.escape(location.title))</text>"
        // Tenths of a viewBox unit; a change too small to see still gets one unit so it is not mistaken for none.
        let length = delta == 0 || largest == 0 ? 0 : max(10, Int((Double(delta.magnitude) / Double(largest) * Double(Self.reach * 10)).rounded()))
        if length > 0 {
            let x = delta > 0 ? Self.zero * 10 : Self.zero * 10 - length
            html += "<rect x=\"\(HTMLFormatting.decimal(tenths: x))\" y=\"\(top + 4)\" width=\"\(HTMLFormatting.decimal(tenths: length))\" "
            html += "height=\"\(Self.rowHeight - 8)\" fill=\"\(delta > 0 ? ReportPalette.growth : ReportPalette.shrink)\">"
            html += "<title>\(HTMLEscaping.escape(location.title)): \(label) "
            let percent = DiffPercent.cell(old: change.oldOrZero.allocatedBytes, new: change.newOrZero.allocatedBytes)
            html += "(\(HTMLEscaping.escape(percent)))</title></rect>"
        }
        let end = delta >= 0 ? Self.zero * 10 + length + 60 : Self.zero * 10 - length - 60
        html += "<text x=\"\(HTMLFormatting.decimal(tenths: end))\" y=\"\(middle)\" text-anchor=\"\(delta >= 0 ? "start" : "end")\">\(label)</text>"
        return html
    }
}
