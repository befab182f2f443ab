import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// Writes `summary.md`: a short GitHub-flavoured Markdown summary for a PR comment or `$GITHUB_STEP_SUMMARY`
/// (which allows 1 MiB per step): the container, the headline totals, a row per location, the most severe
/// findings (at most `findingLimit`), and where the full reports are.
public struct MarkdownSummaryWriter: Sendable {
    public static let defaultFullReportsLine =
        "Full reports (every file and finding): `report.json` and `report.html`, with any other `--format` chosen, in the audit's output folder."

    /// The closing line for a summary written beside `files` (the other report files of the run, in order):
    /// it names only files that exist.
    public static func fullReportsLine(files: [String]) -> String {
        let named = files.map { "`\($0)`" }
        guard let last = named.last else {
            return
                "No full report was written beside this summary: add `json,html` to `--format` for every file and finding."
        }
        let list = named.count == 1 ? last : named.dropLast().joined(separator: ", ") + " and " + last
        return "Full reports (every file and finding): \(list), in the audit's output folder."
    }

    public let findingLimit: Int
    /// The closing line: where a reader finds everything (override with, say, a link to the CI artifacts).
    public let fullReportsLine: String

    public init(findingLimit: Int = 50, fullReportsLine: String = MarkdownSummaryWriter.defaultFullReportsLine) {
        self.findingLimit = max(0, findingLimit)
        self.fullReportsLine = fullReportsLine
    }

    public func render(_ report: Report) -> String {
        let title = report.container.bundleIdentifier.map { MarkdownEscaping.cell($0) } ?? "app data container"
        var markdown = "### Stocktake: \(title)\n\n"
        markdown += "Container \(MarkdownEscaping.cell(report.container.rootPath, limit: 500)) "
        markdown += "(\(report.container.layout.rawValue)), audited \(ReportDates.iso8601(report.generatedAt)) "
        markdown += "by \(MarkdownEscaping.cell(report.tool.name)) \(MarkdownEscaping.cell(report.tool.version)).\n\n"
        markdown += totals(report.inventory.totals)
        markdown += locations(report.inventory.totals)
        if let coverage = report.contentCoverage { markdown += MarkdownEscaping.cell(coverage.summary) + "\n\n" }
        markdown += findings(report)
        return markdown + fullReportsLine + "\n"
    }

    private func totals(_ totals: InventoryTotals) -> String {
        var figures: [Figure] = [
            .onDisk, .appData, .documentsAndData, .purgeable, .backedUp, .excludedByApp, .excludedByIOS,
        ]
        if (totals.backup[.unknown] ?? .zero).files > 0 { figures.append(.backupUnknown) }
        var markdown = "| Figure | Allocated | Files |\n|---|---:|---:|\n"
        for figure in figures {
            let total = figure.total(in: totals)
            let count = figure == .onDisk ? Plural.count(total.files, "entry") : HTMLFormatting.grouped(total.files)
            markdown +=
                "| \(MarkdownEscaping.cell(figure.name)) | \(ByteCount.format(total.allocatedBytes)) | \(count) |\n"
        }
        return markdown + "\n"
    }

    /// The same rows and shares as the HTML's location table: the parts add up to On disk.
    private func locations(_ totals: InventoryTotals) -> String {
        var markdown = "| Location | Allocated | Files | Share of on disk |\n|---|---:|---:|---:|\n"
        let whole = totals.onDisk.allocatedBytes
        for row in LocationChart(totals: totals).rows {
            let total = row.total
            markdown +=
                "| \(MarkdownEscaping.cell(row.label)) | \(ByteCount.format(total.allocatedBytes)) | \(HTMLFormatting.grouped(total.files)) "
            markdown += "| \(Percent.share(total.allocatedBytes, of: whole)) |\n"
        }
        return markdown + "\n"
    }

    /// One row per rule (most severe, then most bytes at stake, first), then each rule's findings with its fix.
    private func findings(_ report: Report) -> String {
        let findings = report.findings
        let counts = findings.severityCounts(number: HTMLFormatting.grouped).joined(separator: ", ")
        var markdown = "**Findings:** \(findings.isEmpty ? "none" : counts)"
        if let baseline = report.baseline, baseline.suppressed > 0 {
            markdown += " (\(Plural.count(baseline.suppressed, "finding")) suppressed by the baseline)"
        }
        markdown += ".\n\n"
        let groups = FindingGroup.rank(findings)
        guard !groups.isEmpty else { return markdown }
        markdown += "| Rule | Severity | Findings | At stake |\n|---|---|---:|---:|\n"
        for group in groups {
            markdown +=
                "| \(MarkdownEscaping.cell(group.rule)) | \(group.severity.rawValue) | \(HTMLFormatting.grouped(group.findings.count)) "
            markdown += "| \(group.bytes > 0 ? ByteCount.format(group.bytes) : "") |\n"
        }
        markdown += "\n"
        var budget = findingLimit
        for group in groups where budget > 0 {
            let shown = group.findings.prefix(budget)
            budget -= shown.count
            markdown +=
                "<details><summary>\(MarkdownEscaping.cell(group.rule)): \(Plural.count(group.findings.count, "finding"))</summary>\n\n"
            if let fix = group.sharedFix { markdown += "Fix: \(MarkdownEscaping.cell(fix, limit: 1000))\n\n" }
            markdown += "| Path | At stake | Message |\n|---|---:|---|\n"
            for finding in shown {
                let path = finding.path.isEmpty ? "(container root)" : MarkdownEscaping.cell(finding.path)
                var message = MarkdownEscaping.cell(finding.message, limit: 500)
                if group.sharedFix == nil { message += " Fix: " + MarkdownEscaping.cell(finding.fix, limit: 500) }
                markdown += "| \(path) | \(finding.bytes.map(ByteCount.format) ?? "") | \(message) |\n"
            }
            if group.findings.count > shown.count {
                markdown +=
                    "\n\(HTMLFormatting.grouped(group.findings.count - shown.count)) more in the full reports.\n"
            }
            markdown += "\n</details>\n\n"
        }
        return markdown
    }
}
