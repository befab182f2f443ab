import StocktakeModel
import StocktakeRendering

/// The diff page's size sections: locations and totals, folders, and the file lists.
extension HTMLDiffWriter {
    func locations() -> HTML {
        var html = HTMLPieces.sectionStart(
            id: "locations", title: "Locations",
            lead:
                "Change in allocated bytes per location. The total is everything on disk, folders included, as du counts it."
        )
        html += chart()
        var rows = Location.allCases.map { location -> HTML in
            let swatch = HTMLPieces.swatch(ReportPalette.colour(location))
            let label: HTML = "\(swatch)\(location.title) <code class=\"muted\">\(location.rawValue)</code>"
            return locationRow(label, diff.location(location))
        }.joined()
        rows += locationRow(HTML.text(Figure.onDisk.name), diff.onDisk, total: true)
        let more = Pieces.figureHeadings("Apparent Δ", "%", "Files old", "Files new", "Files Δ")
        html += HTMLPieces.table(head: "<th>Location</th>" + Pieces.sizeHeaders + more, rows: rows)
        let totals = DiffLabels.secondaryTotals.map { id, figure -> HTML in
            "<tr><td>\(figure.name)</td>\(Pieces.sizeCells(diff.total(id)))</tr>\n"
        }
        html +=
            "<h3>Totals</h3>\n" + HTMLPieces.table(head: "<th>Total</th>" + Pieces.sizeHeaders, rows: totals.joined())
        return html + HTMLPieces.sectionEnd
    }

    private func locationRow(_ label: HTML, _ change: SizeChange, total: Bool = false) -> HTML {
        let (old, new) = (change.oldOrZero, change.newOrZero)
        var html: HTML =
            "<tr\(total ? " class=\"total\"" : HTML.empty)><td class=\"nowrap\">\(label)</td>\(Pieces.sizeCells(change))"
        html +=
            Pieces.deltaCell(change.apparentDelta) + Pieces.percentCell(old: old.apparentBytes, new: new.apparentBytes)
        html +=
            HTMLPieces.countCell(old.files) + HTMLPieces.countCell(new.files) + Pieces.countDeltaCell(change.filesDelta)
        return html + "</tr>\n"
    }

    func directories() -> HTML {
        let head = ListHead(diff.directories, limit: limit)
        let html = HTMLPieces.sectionStart(
            id: "directories", title: "Directories",
            lead: "Folders whose contents changed, largest change first; a folder includes its subfolders.")
        return html + sizeTable(head, name: "Path", empty: "No folder changed.", inJSON: false) + HTMLPieces.sectionEnd
    }

    /// Copies whose original stayed: the app's migration forgot to delete the old file.
    func leftBehind() -> HTML {
        let moves = diff.files.leftBehind
        guard !moves.isEmpty else { return .empty }
        let head = ListHead(moves, limit: limit) { $0.allocatedDelta }
        var html: HTML = "<section id=\"left-behind\" class=\"risk\" aria-labelledby=\"left-behind-title\">\n"
        html += "<h2 id=\"left-behind-title\">Left behind <span class=\"tag\">risk</span></h2>\n"
        html +=
            "<p class=\"lead\">These files were copied to a new place but the original is still there, so the data takes "
        html += "its space twice: a migration that forgot to delete the old file.</p>\n"
        let rows = head.shown.map { move -> HTML in
            "<tr>" + Pieces.pathCell(move.newPath) + Pieces.pathCell(move.oldPath)
                + HTMLPieces.sizeCell(move.new.allocatedBytes) + "<td>\(DiffLabels.evidence(move.evidence))</td></tr>\n"
        }
        html += HTMLPieces.table(
            head: "<th>Copied to</th><th>Original still at</th>" + Pieces.figureHeadings("Size each")
                + "<th>Evidence</th>", rows: rows.joined())
        html += Pieces.others(head)
        return html + HTMLPieces.sectionEnd
    }

    func files() -> HTML {
        let files = diff.files
        var html = HTMLPieces.sectionStart(id: "files", title: "Files")
        html += "<h3>Moved (\(HTMLFormatting.grouped(files.moved.count)))</h3>\n" + moved()
        for (title, list) in [("Added", files.added), ("Removed", files.removed), ("Changed", files.changed)] {
            html += "<h3>\(title) (\(HTMLFormatting.grouped(list.count)))</h3>\n"
            html += sizeTable(ListHead(list, limit: limit), name: "Path", empty: "None.")
        }
        return html + HTMLPieces.sectionEnd
    }

    private func moved() -> HTML {
        let moves = diff.files.moved
        guard !moves.isEmpty else { return Pieces.empty("None.") }
        let head = ListHead(moves, limit: limit) { $0.allocatedDelta }
        let rows = head.shown.map { move -> HTML in
            "<tr>" + Pieces.pathCell(move.oldPath) + Pieces.pathCell(move.newPath)
                + HTMLPieces.sizeCell(move.old.allocatedBytes) + HTMLPieces.sizeCell(move.new.allocatedBytes)
                + Pieces.deltaCell(move.allocatedDelta) + "<td>\(DiffLabels.evidence(move.evidence))</td></tr>\n"
        }
        let headings =
            "<th>Old path</th><th>New path</th>" + Pieces.figureHeadings("Old", "New", "Delta") + "<th>Evidence</th>"
        return HTMLPieces.table(head: headings, rows: rows.joined()) + Pieces.others(head)
    }

    /// A path (or member id) per row with old, new, delta and %; `name` is the first column's header.
    /// `inJSON`: whether the JSON format lists the rows this table leaves out (files: yes; folders follow `--limit`).
    func sizeTable(_ head: ListHead<SizeChange>, name: String, isPath: Bool = true, empty: String, inJSON: Bool = true)
        -> HTML
    {
        guard !head.shown.isEmpty else {
            return head.othersCount > 0 ? Pieces.others(head, inJSON: inJSON) : Pieces.empty(empty)
        }
        let rows = head.shown.map { change -> HTML in
            let label = isPath ? Pieces.path(change.id) : HTML.visible(change.id)
            return "<tr><td class=\"path\">\(label)</td>\(Pieces.sizeCells(change))</tr>\n"
        }
        return HTMLPieces.table(head: "<th>\(name)</th>" + Pieces.sizeHeaders, rows: rows.joined())
            + Pieces.others(head, inJSON: inJSON)
    }

    /// Diverging bars: each location's change in allocated bytes, growth to the right of zero and shrink to the
    /// left, each labelled with its signed size so colour is never the only cue. Plain boxes rather than SVG, so
    /// the labels keep the page's text size at any width (an SVG scaled to a phone shrank them to 3 px). The
    /// locations table below carries the same numbers for screen readers.
    private func chart() -> HTML {
        let shown = Location.allCases.map { (location: $0, change: diff.location($0)) }.filter {
            $0.change.oldOrZero != .zero || $0.change.newOrZero != .zero
        }
        let largest = shown.map(\.change.allocatedDelta.magnitude).max() ?? 0
        guard !shown.isEmpty else { return HTMLDiffPieces.empty("Both reports are empty.") }
        var html: HTML = "<p class=\"legend\"><span>\(HTMLPieces.swatch(ReportPalette.growth))Growth (+)</span>"
        html += "<span>\(HTMLPieces.swatch(ReportPalette.shrink))Shrink (-)</span></p>\n"
        html += "<div class=\"dchart\" aria-hidden=\"true\">\n"
        for row in shown { html += chartBar(row.location, row.change, largest: largest) }
        return html + "</div>\n"
    }

    private func chartBar(_ location: Location, _ change: SizeChange, largest: UInt64) -> HTML {
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
