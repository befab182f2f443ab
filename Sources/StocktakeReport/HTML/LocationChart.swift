import StocktakeModel
import StocktakeRendering

/// One coloured part of a stacked bar.
struct BarSegment {
    /// Plain text; escaped when rendered.
    let label: String
    let colour: String
    let bytes: Int64
}

extension SizeTotal {
    /// Files, apparent and allocated bytes: three table cells.
    var cells: HTML {
        HTMLPieces.countCell(files) + HTMLPieces.sizeCell(apparentBytes) + HTMLPieces.sizeCell(allocatedBytes)
    }
}

/// A horizontal stacked bar in inline SVG, like Settings ▸ iPhone Storage. The table beside it carries the
/// same numbers, so the chart is decoration for sighted readers and the table is the accessible version.
enum StackedBar {
    static func svg(_ segments: [BarSegment], label: String) -> HTML {
        let total = segments.reduce(Int64(0)) { $0 &+ max(0, $1.bytes) }
        var html: HTML = "<svg class=\"chart\" viewBox=\"0 0 1000 30\" preserveAspectRatio=\"none\" role=\"img\" "
        html += "aria-label=\"\(label)\">"
        guard total > 0 else { return html + "</svg>\n" }
        // Edges from the running sum, so rounding never leaves gaps or overlaps between segments.
        var running: Int64 = 0
        var left = 0
        for segment in segments where segment.bytes > 0 {
            running &+= segment.bytes
            let right = edgeInTenths(running, of: total)
            defer { left = right }
            guard right > left else { continue }
            html += "<rect x=\"\(HTMLFormatting.decimal(tenths: left))\" y=\"0\" "
            html +=
                "width=\"\(HTMLFormatting.decimal(tenths: right - left))\" height=\"30\" fill=\"\(segment.colour)\">"
            html += "<title>\(segment.label): \(ByteCount.format(segment.bytes)) "
            html += "(\(HTMLPieces.percent(segment.bytes, of: total)))</title></rect>"
        }
        return html + "</svg>\n"
    }

    /// Position on the 1000-unit axis in tenths of a unit (0...10000).
    private static func edgeInTenths(_ part: Int64, of whole: Int64) -> Int {
        Int(min(10_000, max(0, (Double(part) / Double(whole) * 10_000).rounded())))
    }
}

/// Where the space goes: the split by location, plus the folders' own blocks and transport metadata so the
/// parts add up to the allocated total on disk.
struct LocationChart {
    let totals: InventoryTotals

    struct Row {
        let colour: String
        /// Plain, for the bar and `summary.md`; `title` names it in the table.
        let label: String
        let title: HTML
        let total: SizeTotal
    }

    /// The locations holding files, then the folders' own blocks and the transport metadata: the parts of On disk.
    var rows: [Row] {
        var rows: [Row] = Location.allCases.compactMap { location in
            guard let total = totals.byLocation[location], total.files > 0 else { return nil }
            let title: HTML = "\(location.title) files <code class=\"muted\">\(location.rawValue)</code>"
            return Row(colour: ReportPalette.colour(location), label: location.title, title: title, total: total)
        }
        let folders = Figure.folders.name
        if totals.directories.files > 0 {
            rows.append(
                Row(colour: ReportPalette.folders, label: folders, title: HTML.text(folders), total: totals.directories)
            )
        }
        if totals.transportArtefacts.files > 0 {
            let name = Figure.transportArtefacts.name
            let title: HTML = "\(name) <span class=\"muted\">(AppleDouble, __MACOSX)</span>"
            rows.append(
                Row(colour: ReportPalette.transport, label: name, title: title, total: totals.transportArtefacts))
        }
        return rows
    }

    /// The charts' table heads: the cells naming a row, then the figures and the share of `whole`.
    static func head(_ naming: HTML, share whole: String) -> HTML {
        "\(naming)<th class=\"num\">Files</th><th class=\"num\">Apparent</th><th class=\"num\">Allocated</th>"
            + "<th class=\"num\">Share of \(whole)</th>"
    }

    func render() -> HTML {
        let rows = rows
        let onDisk = totals.onDisk
        var html = HTMLPieces.sectionStart(
            id: "locations", title: "Space by location",
            lead:
                "Allocated bytes per location. Caches and tmp are purgeable; everything else counts as Documents & Data."
        )
        // Locations and parts without bytes draw nothing.
        let segments = rows.map { BarSegment(label: $0.label, colour: $0.colour, bytes: $0.total.allocatedBytes) }
        html += StackedBar.svg(segments, label: "Allocated bytes by location; the table below lists the same numbers.")
        var body = rows.map { row -> HTML in
            "<tr><td>\(HTMLPieces.swatch(row.colour))\(row.title)</td>\(row.total.cells)"
                + "<td class=\"num\">\(HTMLPieces.percent(row.total.allocatedBytes, of: onDisk.allocatedBytes))</td></tr>\n"
        }.joined()
        body += "<tr class=\"total\"><td>\(Figure.onDisk.name)</td>\(onDisk.cells)<td class=\"num\">100%</td></tr>\n"
        html += HTMLPieces.table(head: Self.head("<th>Location</th>", share: "on disk"), rows: body)
        html +=
            "<p class=\"note\">A location counts its files only: the folder of the same name (in the map, the folder tree "
        html +=
            "and Largest folders) also counts the blocks of the folders inside it, which are the \(Figure.folders.name) row here. "
        html += "Files count every entry that is not a folder; \(Figure.onDisk.name) counts every entry, "
        html +=
            "folders included, and equals <code>du</code> on the same tree (hard links once). The locations together are "
        html += "\(Figure.appData.name) (\(HTMLPieces.size(totals.appData.allocatedBytes))).</p>\n"
        return html + HTMLPieces.sectionEnd
    }
}

/// Backup state of the app's data, with the evidence the audit had.
struct BackupChart {
    let inventory: Inventory

    /// From what is safe to what needs a look.
    static let order: [BackupState] = [.included, .excluded, .excludedBySystem, .unknown]

    func render() -> HTML {
        let totals = inventory.totals
        let appData = totals.appData.allocatedBytes
        var html = HTMLPieces.sectionStart(id: "backup", title: "Backup", lead: inventory.evidence.summary)
        let segments = BackupChart.order.map {
            BarSegment(
                label: Figure(backup: $0).name, colour: ReportPalette.colour($0),
                bytes: totals.backup[$0]?.allocatedBytes ?? 0)
        }
        html += StackedBar.svg(
            segments, label: "Allocated bytes by backup state; the table below lists the same numbers.")
        let rows = BackupChart.order.map { state -> HTML in
            let total = totals.backup[state] ?? .zero
            return
                "<tr><td class=\"nowrap\">\(HTMLPieces.swatch(ReportPalette.colour(state)))\(Figure(backup: state).name) "
                + "<code class=\"muted\">\(state.rawValue)</code></td><td class=\"muted\">\(ReportPalette.explanation(state))</td>"
                + "\(total.cells)<td class=\"num\">\(HTMLPieces.percent(total.allocatedBytes, of: appData))</td></tr>\n"
        }
        html += HTMLPieces.table(
            head: LocationChart.head("<th>State</th><th>Meaning</th>", share: "app data"), rows: rows.joined())
        let evidence = inventory.evidence
        html +=
            "<p class=\"note\">Exclusion flags found: \(HTMLFormatting.grouped(evidence.flaggedByXattr)) by extended attribute, "
        html += "\(HTMLFormatting.grouped(evidence.flaggedByLegacyXattr)) by the legacy attribute, "
        html += "\(HTMLFormatting.grouped(evidence.flaggedByAppleDouble)) by AppleDouble sidecar. "
        html += "Entries with extended attributes: \(HTMLFormatting.grouped(evidence.entriesWithAttributes)); "
        html += "AppleDouble sidecars: \(HTMLFormatting.grouped(evidence.appleDoubleSidecars)).</p>\n"
        return html + HTMLPieces.sectionEnd
    }
}
