import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// The page's frame: title, masthead with contents, the summary cards and the footer.
struct HTMLSections {
    let report: Report

    private var totals: InventoryTotals { report.inventory.totals }

    /// The bundle identifier as the page shows it, or a neutral title.
    private var appName: HTML {
        guard let identifier = report.container.bundleIdentifier, !identifier.isEmpty else {
            return "Unidentified container"
        }
        return HTML.visible(identifier)
    }

    private var generatedAt: String {
        ReportDates.utc(secondsSince1970: report.generatedAt.timeIntervalSince1970) ?? "an unknown time"
    }

    var pageTitle: HTML { "Stocktake: \(appName)" }

    func masthead() -> HTML {
        let tool = report.tool.name + " " + report.tool.version
        var html: HTML = "<header class=\"masthead\">\n<div class=\"wrap\">\n"
        html += "<p class=\"eyebrow\">Stocktake report</p>\n"
        html += "<h1>\(appName)</h1>\n"
        html += "<p class=\"meta\">\(ContainerSectionHTML.layoutTitle(report.container.layout)) · "
        html += "<span class=\"path\">\(visible: report.container.inputPath)</span></p>\n"
        html += "<p class=\"meta\">Generated \(generatedAt) by \(tool)</p>\n"
        html += "<nav class=\"toc\" aria-label=\"Sections\">"
        func counted(_ title: String, _ count: Int) -> String {
            count == 0 ? title : "\(title) (\(HTMLFormatting.grouped(count)))"
        }
        var links = [
            ("summary", "Summary"), ("map", "Map"), ("findings", counted("Findings", report.findings.count)),
            ("container", "Container"), ("locations", "Space by location"), ("backup", "Backup"),
            ("folders", "Folders"),
            ("largest-files", "Largest files"), ("largest-folders", "Largest folders"), ("kinds", "Kinds of content"),
            ("issues", counted("Unreadable", report.issues.count)),
        ]
        if !report.groups.isEmpty || !report.budgets.isEmpty || report.baseline != nil {
            links.insert(("groups", "Groups and budgets"), at: 3)
        }
        for (anchor, title) in links { html += "<a href=\"#\(anchor)\">\(title)</a>" }
        html += "</nav>\n</div>\n</header>\n"
        return html
    }

    /// Passed or failed, by which gates, the counts, and the worst findings with their fixes.
    func verdict(_ gates: AuditGates) -> HTML {
        let verdict = ReportVerdict(report: report, gates: gates, number: HTMLFormatting.grouped)
        let codes = verdict.gates.map { "<code>\($0)</code>" as HTML }.joined(separator: ", ")
        let outcome: VerdictHTML.Outcome = verdict.failed.map { $0 ? .failed : .passed } ?? .ungated
        var lines: [HTML] = verdict.worst.map { finding in
            let title = RuleRegistry.rule(id: finding.rule)?.description.title ?? finding.rule
            let path = finding.path.isEmpty ? "(container root)" : HTML.path(Array(finding.path.utf8))
            var line: HTML = "<span class=\"tag sev-\(finding.severity.rawValue)\">\(finding.severity.rawValue)</span> "
            line += "<strong>\(title)</strong>: <span class=\"path\">\(path)</span>"
            if let bytes = finding.bytes { line += " (\(HTMLPieces.size(bytes)))" }
            return line + "<div class=\"fix\"><strong>Fix:</strong> \(visible: finding.fix)</div>"
        }
        if report.findings.count > verdict.worst.count { lines.append("<a href=\"#findings\">Every finding</a>") }
        return VerdictHTML.render(
            outcome, headline: "\(codes): \(verdict.reason). \(Self.capitalised(verdict.counts)).", lines: lines)
    }

    private static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    func summary() -> HTML {
        let onDisk = totals.onDisk
        let figure = { (figure: Figure) in figure.total(in: totals) }
        let count = { (count: Int, noun: String) -> HTML in "\(HTMLFormatting.count(count, noun))" }
        var html = HTMLPieces.sectionStart(
            id: "summary", title: "Summary",
            lead:
                "Allocated sizes: the blocks the files occupy on disk, as Settings counts them (\u{201C}Figures\u{201D} in Stocktake\u{2019}s docs/reports.md)."
        )
        html += "<div class=\"cards\">\n"
        html += card(.onDisk, "apparent \(HTMLPieces.size(onDisk.apparentBytes)) · \(count(onDisk.files, "entry"))")
        let unreadable = report.issues.count
        var appNote: HTML =
            "\(count(totals.appData.files, "file")) · \(figureText(.folders)) · \(figureText(.transportArtefacts))"
        appNote += unreadable == 0 ? " · all readable" : " · \(count(unreadable, "entry")) not readable"
        html += card(.appData, appNote)
        html += card(.documentsAndData, "\(count(figure(.documentsAndData).files, "file")) outside Caches and tmp")
        html += card(.purgeable, "Caches and tmp · \(count(figure(.purgeable).files, "file"))")
        html += card(.backedUp, Figure.backup.dropFirst().map(figureText).joined(separator: " · "))
        if let appSize = report.appSize {
            html += HTMLPieces.card(
                "App size", HTMLPieces.size(appSize.totalBytes),
                "bundle \(HTMLPieces.size(appSize.bundleBytes)) + data without Caches \(HTMLPieces.size(appSize.containerWithoutCachesBytes)) "
                    + "+ groups \(HTMLPieces.size(appSize.appGroupBytes))")
        }
        html += "<div class=\"card wide\"><div class=\"card-label\">Backup evidence</div>"
        html += "<div class=\"card-text\">\(report.inventory.evidence.summary)</div></div>\n"
        if let coverage = report.contentCoverage {
            // What the content checks read; what they left unread is listed under "What could not be read".
            html += "<div class=\"card wide\"><div class=\"card-label\">Content checks</div>"
            html += "<div class=\"card-text\">\(coverage.summary)</div></div>\n"
        }
        html += "</div>\n" + HTMLPieces.sectionEnd
        return html
    }

    /// A figure's card: its name, its allocated bytes, and a note.
    private func card(_ figure: Figure, _ note: HTML) -> HTML {
        HTMLPieces.card(HTML.text(figure.name), HTMLPieces.size(figure.total(in: totals).allocatedBytes), note)
    }

    /// "Excluded by iOS 995 KB": a figure named inside another card's note.
    private func figureText(_ figure: Figure) -> HTML {
        let total = figure.total(in: totals)
        if figure == .folders { return "\(HTMLFormatting.count(total.files, "folder"))" }
        return "\(figure.name) \(HTMLPieces.size(total.allocatedBytes))"
    }

    func footer() -> HTML {
        "<footer class=\"wrap\">Generated \(generatedAt) by \(report.tool.name + " " + report.tool.version)"
            + " · report schema \(Report.schemaVersion) · sizes in decimal units (a KB is a thousand bytes); "
            + "hover a size for the exact byte count.</footer>\n"
    }
}
