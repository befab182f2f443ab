import StocktakeHistory
import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// One app on the index page: its latest run, the change since the one before, its trend and links.
struct AppSectionHTML {
    let app: NightlyIndex.App
    /// A stable anchor made by the page (never from the bundle identifier).
    let anchor: String

    var name: HTML {
        app.source == RunSeries.defaultSource
            ? HTML.visible(app.bundleIdentifier)
            : "\(visible: app.bundleIdentifier) <span class=\"source\">· \(visible: app.source)</span>"
    }

    func render() -> HTML {
        var html: HTML = "<section id=\"\(anchor)\" aria-labelledby=\"\(anchor)-title\">\n<div class=\"app-head\">"
        html += "<h2 id=\"\(anchor)-title\">\(name)</h2>"
        guard let latest = app.latest else {
            return html + "</div>\n<p class=\"lead\">No runs recorded.</p>\n" + links() + HTMLPieces.sectionEnd
        }
        html += Self.statusTag(latest.status) + "</div>\n"
        html += "<p class=\"lead\">Latest run \(visible: latest.runID)"
        if let version = latest.appVersion { html += " · app version \(visible: version)" }
        html += " · stocktake \(visible: latest.toolVersion)"
        if app.showsMachine, let machine = latest.recordedBy { html += " · recorded by \(visible: machine)" }
        html += "</p>\n"
        return html + cards(latest) + LocationTreemap(latest).render(idPrefix: anchor + "-map") + trend() + links()
            + HTMLPieces.sectionEnd
    }

    static func statusTag(_ status: HistoryRun.Status) -> HTML {
        switch status {
        case .clean: "<span class=\"status clean\">clean</span>"
        case .policyFailure: "<span class=\"status failed\">policy failure</span>"
        }
    }

    /// "2 errors · 1 warning · 0 notes"; with `omittingZeros`, "2 errors · 1 warning" (or "none").
    static func findingCounts(_ run: HistoryRun, omittingZeros: Bool = false) -> String {
        let parts = [Severity.error, .warning, .note].compactMap { severity -> String? in
            let count = run.findingsBySeverity[severity] ?? 0
            guard count > 0 || !omittingZeros else { return nil }
            return HTMLFormatting.count(count, severity.rawValue)
        }
        return parts.isEmpty ? "none" : parts.joined(separator: " · ")
    }

    /// The change as coloured markup: growth in the warning colour, shrinking in green.
    static func change(_ change: RunSizeChange) -> HTML {
        let text = change.text(bytes: ByteCount.format)
        let title = "\(HTMLFormatting.exactBytes(change.before)) → \(HTMLFormatting.exactBytes(change.after))"
        let tone: HTML = change.delta > 0 ? " class=\"grew\"" : change.delta < 0 ? " class=\"shrank\"" : .empty
        return "<span\(tone) title=\"\(title)\">\(text)</span>"
    }

    private func cards(_ latest: HistoryRun) -> HTML {
        var html: HTML = "<div class=\"cards\">\n"
        let name = { (figure: Figure) in HTML.text(figure.name) }
        html += HTMLPieces.card(
            name(.onDisk), HTMLPieces.size(latest.onDisk.allocatedBytes),
            HTML.text(HTMLFormatting.count(latest.onDisk.files, "entry")))
        html += HTMLPieces.card(
            name(.documentsAndData), HTMLPieces.size(latest.documentsAndData.allocatedBytes),
            "\(HTMLFormatting.count(latest.documentsAndData.files, "file")) outside Caches and tmp")
        html += HTMLPieces.card(name(.purgeable), HTMLPieces.size(latest.purgeable.allocatedBytes), "Caches and tmp")
        // The store keeps the two exclusions as one sum, so the page names only the figures it has.
        html += HTMLPieces.card(
            name(.backedUp), HTMLPieces.size(latest.backedUpBytes),
            "\(name(.backupUnknown)) \(HTMLPieces.size(latest.unknownBackupBytes))")
        html += HTMLPieces.card(
            "Findings", HTML.text(HTMLFormatting.grouped(latest.findingCount)), HTML.text(Self.findingCounts(latest)))
        let (change, against): (HTML, HTML) =
            app.previous.map {
                (Self.change(latest.onDiskChange(since: $0)), "on disk, against \(visible: $0.runID)")
            } ?? ("—", "first recorded run")
        html += HTMLPieces.card("Since previous run", change, against, valueClass: "change")
        return html + "</div>\n"
    }

    private func trend() -> HTML {
        let runs = app.runs
        var html: HTML = "<h3>On disk over the last \(HTMLFormatting.count(runs.count, "run"))</h3>\n"
        html += TrendChart.figure(
            runs, label: "Allocated bytes on disk per run, oldest first; the table below lists the same numbers.")
        html += "<p class=\"note\">\(TrendChart.caption(runs))</p>\n"
        html +=
            "<details class=\"doc\"><summary>Run by run</summary>\n<div class=\"scroll\"><table>\n<thead><tr><th>Run</th>"
        html +=
            "<th>App version</th><th class=\"num\">On disk</th><th class=\"num\">Change</th><th class=\"num\">Findings</th>"
        html += "<th>Status</th></tr></thead>\n<tbody>\n"
        for (index, run) in runs.enumerated() {
            html += "<tr><td class=\"nowrap\">\(visible: run.runID)</td>"
            html += "<td>\(run.appVersion.map(HTML.visible) ?? "<span class=\"muted\">—</span>")</td>"
            html += HTMLPieces.sizeCell(run.onDisk.allocatedBytes)
            let before = index == 0 ? app.runBefore : runs[index - 1]
            html +=
                "<td class=\"num\">\(before.map { Self.change(run.onDiskChange(since: $0)) } ?? "<span class=\"muted\">—</span>")</td>"
            html += HTMLPieces.countCell(run.findingCount)
            html += "<td>\(Self.statusTag(run.status))</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n</details>\n"
    }

    private func links() -> HTML {
        var html: HTML = "<p class=\"links\">"
        if let report = app.latestReport {
            html += "<a href=\"\(Self.href(report))\">Latest report</a>"
        } else if let latest = app.latest {
            // Recorded elsewhere, in a folder this page cannot reach: say where it is.
            var place = "Latest report: not reachable from this page"
            if let machine = latest.recordedBy {
                place += " (on \(machine)" + (latest.reportLocation.map { ", \($0)" } ?? "") + ")"
            }
            html += "<span class=\"muted\">\(visible: place)</span>"
        }
        if let diff = app.latestDiff { html += "<a href=\"\(Self.href(diff))\">Changes since the previous run</a>" }
        return html + "</p>\n"
    }

    /// An address was checked to hold nothing an attribute could read differently; it is still escaped.
    static func href(_ link: ReportLink) -> HTML {
        switch link {
        case .relative(let path): HTML.text(RelativeHref.encode(path))
        case .address(let address): HTML.text(address)
        }
    }
}
