import Foundation
import StocktakeModel
import StocktakeRendering

/// The page's frame: title, masthead with contents, the summary cards and the footer.
struct HTMLSections {
    let report: Report

    private var totals: InventoryTotals { report.inventory.totals }

    /// The bundle identifier as the page shows it (escaped), or a neutral title.
    private var appName: String {
        guard let identifier = report.container.bundleIdentifier, !identifier.isEmpty else { return "Unidentified container" }
        return HTMLEscaping.visibleText(identifier)
    }

    private var generatedAt: String {
        HTMLFormatting.utc(secondsSince1970: report.generatedAt.timeIntervalSince1970) ?? "an unknown time"
    }

    var pageTitle: String { "Stocktake: " + appName }

    func masthead() -> String {
        let tool = HTMLEscaping.escape(report.tool.name + " " + report.tool.version)
        var html = "<header class=\"masthead\">\n<div class=\"wrap\">\n"
        html += "<p class=\"eyebrow\">Stocktake report</p>\n"
        html += "<h1>\(appName)</h1>\n"
        html += "<p class=\"meta\">\(ContainerSectionHTML.layoutTitle(report.container.layout)) · "
        html += "<span class=\"path\">\(HTMLEscaping.visibleText(report.container.inputPath))</span></p>\n"
        html += "<p class=\"meta\">Generated \(generatedAt) by \(tool)</p>\n"
        html += "<nav class=\"toc\" aria-label=\"Sections\">"
        let issueCount = report.issues.count
        let hasGroups = !report.groups.isEmpty || !report.budgets.isEmpty || report.baseline != nil
        var links: [(String, String)] = [
            ("summary", "Summary"),
            ("findings", report.findings.isEmpty ? "Findings" : "Findings (\(HTMLFormatting.grouped(report.findings.count)))"),
            ("container", "Container"), ("locations", "Space by location"),
            ("backup", "Backup"), ("folders", "Folders"), ("largest-files", "Largest files"), ("largest-folders", "Largest folders"),
            ("kinds", "Kinds of content"),
            ("issues", issueCount == 0 ? "Unreadable" : "Unreadable (\(HTMLFormatting.grouped(issueCount)))"),
        ]
        if hasGroups { links.insert(("groups", "Groups and budgets"), at: 2) }
        for (anchor, title) in links { html += "<a href=\"#\(anchor)\">\(title)</a>" }
        html += "</nav>\n</div>\n</header>\n"
        return html
    }

    func summary() -> String {
        let onDisk = totals.onDisk
        let appFiles = Location.allCases.reduce(0) { $0 + (totals.byLocation[$1]?.files ?? 0) }
        let backup = { (state: BackupState) in totals.backup[state] ?? .zero }
        let excludedBytes = backup(.excluded).allocatedBytes.saturatingAdd(backup(.excludedBySystem).allocatedBytes)
        var html = HTMLPieces.sectionStart(
            id: "summary", title: "Summary",
            lead: "Allocated sizes: the blocks the files occupy on disk, as Settings counts them.")
        html += "<div class=\"cards\">\n"
        html += card(
            "On disk", HTMLPieces.size(onDisk.allocatedBytes),
            "apparent \(HTMLPieces.size(onDisk.apparentBytes)) · \(HTMLFormatting.grouped(onDisk.files)) entries")
        html += card(
            "Documents &amp; Data", HTMLPieces.size(totals.documentsAndData.allocatedBytes),
            "\(HTMLFormatting.grouped(totals.documentsAndData.files)) files outside Caches and tmp")
        html += card(
            "Backed up", HTMLPieces.size(backup(.included).allocatedBytes),
            "excluded \(HTMLPieces.size(excludedBytes)) · unknown \(HTMLPieces.size(backup(.unknown).allocatedBytes))")
        html += card(
            "Purgeable", HTMLPieces.size(totals.purgeable.allocatedBytes),
            "Caches and tmp · \(HTMLFormatting.grouped(totals.purgeable.files)) files")
        let unreadable = report.issues.count
        html += card(
            "Files", HTMLFormatting.grouped(appFiles),
            "\(HTMLFormatting.grouped(totals.directories.files)) folders · "
                + (unreadable == 0 ? "all readable" : "\(HTMLFormatting.grouped(unreadable)) not readable"))
        if let appSize = report.appSize {
            html += card(
                "App size", HTMLPieces.size(appSize.totalBytes),
                "bundle \(HTMLPieces.size(appSize.bundleBytes)) + data without Caches "
                    + "\(HTMLPieces.size(appSize.containerWithoutCachesBytes)) + groups \(HTMLPieces.size(appSize.appGroupBytes))")
        }
        html += "<div class=\"card wide\"><div class=\"card-label\">Backup evidence</div>"
        html += "<div class=\"card-text\">\(HTMLEscaping.escape(report.inventory.evidence.summary))</div></div>\n"
        html += "</div>\n" + HTMLPieces.sectionEnd
        return html
    }

    /// `value` and `note` are markup built from numbers and escaped text.
    private func card(_ label: String, _ value: String, _ note: String) -> String {
        "<div class=\"card\"><div class=\"card-label\">\(label)</div><div class=\"card-value\">\(value)</div>"
            + "<div class=\"card-note\">\(note)</div></div>\n"
    }

    func footer() -> String {
        "<footer class=\"wrap\">Generated \(generatedAt) by \(HTMLEscaping.escape(report.tool.name + " " + report.tool.version))"
            + " · report schema \(Report.schemaVersion) · sizes in decimal units (1 KB = 1,000 bytes); "
            + "hover a size for the exact byte count.</footer>\n"
    }
}
