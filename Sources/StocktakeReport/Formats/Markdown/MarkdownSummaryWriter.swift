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
            return "No full report was written beside this summary: add `json,html` to `--format` for every file and finding."
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
        markdown += findings(report.findings)
        return markdown + fullReportsLine + "\n"
    }

    private func totals(_ totals: InventoryTotals) -> String {
        var rows: [(String, SizeTotal)] = [
            ("Allocated on disk", totals.onDisk),
            ("Documents & Data", totals.documentsAndData),
            ("Backed up", totals.backup[.included] ?? .zero),
        ]
        let unknown = totals.backup[.unknown] ?? .zero
        if unknown.files > 0 { rows.append(("Backup unknown (no evidence in the export)", unknown)) }
        rows.append(("Purgeable (Caches, tmp)", totals.purgeable))
        var markdown = "| Total | Allocated | Files |\n|---|---:|---:|\n"
        for (label, total) in rows {
            markdown += "| \(MarkdownEscaping.cell(label)) | \(HTMLFormatting.bytes(total.allocatedBytes)) | \(HTMLFormatting.grouped(total.files)) |\n"
        }
        return markdown + "\n"
    }

    private func locations(_ totals: InventoryTotals) -> String {
        var markdown = "| Location | Allocated | Files | Share |\n|---|---:|---:|---:|\n"
        let whole = Location.allCases.reduce(Int64(0)) { $0.saturatingAdd(totals.byLocation[$1]?.allocatedBytes ?? 0) }
        for location in Location.allCases {
            let total = totals.byLocation[location] ?? .zero
            guard total.files > 0 else { continue }
            markdown += "| \(location.title) | \(HTMLFormatting.bytes(total.allocatedBytes)) | \(HTMLFormatting.grouped(total.files)) "
            markdown += "| \(HTMLFormatting.percent(total.allocatedBytes, of: whole)) |\n"
        }
        return markdown + "\n"
    }

    private func findings(_ findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "**Findings:** none.\n\n" }
        let counts = findings.severityCounts(number: HTMLFormatting.grouped)
        var markdown = "**Findings:** \(counts.joined(separator: ", ")).\n\n"
        let shown = findings.bySeverity.prefix(findingLimit)
        if !shown.isEmpty {
            markdown += "| Severity | Rule | Path | Message |\n|---|---|---|---|\n"
            for finding in shown {
                let path = finding.path.isEmpty ? "(container root)" : MarkdownEscaping.cell(finding.path)
                markdown += "| \(finding.severity.rawValue) | \(MarkdownEscaping.cell(finding.rule)) | \(path) "
                markdown += "| \(MarkdownEscaping.cell(finding.message, limit: 500)) |\n"
            }
            markdown += "\n"
        }
        if findings.count > shown.count {
            markdown += "\(HTMLFormatting.grouped(findings.count - shown.count)) more not shown here.\n\n"
        }
        return markdown
    }
}
