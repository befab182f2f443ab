import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// The diff as GitHub-flavoured Markdown for a pull-request comment: a headline, the gates, sizes by location, then the
/// heads of the folder and file lists, groups, budgets and findings. Lists longer than a few rows fold into
/// `<details>`. Every name goes through `MarkdownEscaping`; sizes as in `summary.md` (`ByteCount.format`).
struct MarkdownDiffWriter {
    let diff: ReportDiff
    let gates: [DiffGateResult]
    let options: DiffRenderOptions

    /// Lists with more rows than this fold into `<details>`.
    static let openRows = 5

    func render() -> String {
        var markdown =
            "### Stocktake diff: \(Self.cell(diff.new.bundleIdentifier ?? diff.old.bundleIdentifier ?? "app data container"))"
        markdown += " \(Self.cell(diff.old.appVersion ?? "?")) → \(Self.cell(diff.new.appVersion ?? "?"))\n\n"
        markdown += headline() + "\n\n" + gateList() + provenance() + locations()
        markdown += lists()
        markdown += "Compared by \(Self.cell(options.tool.name)) \(Self.cell(options.tool.version)); "
        return markdown + "the JSON format of the diff lists every file and finding.\n"
    }

    private func headline() -> String {
        let onDisk = diff.onDisk.allocatedCells
        let line = "**Storage** \(onDisk[0]) → \(onDisk[1]) (\(onDisk[2]), \(Self.cell(onDisk[3])))"
        return line + " · " + (DiffLabels.findingsSummary(diff.findings) ?? "no new findings")
    }

    private func gateList() -> String {
        guard !gates.isEmpty else { return "" }
        let failed = gates.count { $0.tripped }
        var markdown = "**Gates:** \(failed) failed, \(gates.count - failed) passed\n\n"
        for gate in gates {
            markdown +=
                "- \(gate.tripped ? "**FAILED**" : "passed") \(Self.cell(gate.gate)): \(Self.cell(gate.message))\n"
        }
        return markdown + "\n"
    }

    private func provenance() -> String {
        var markdown = "<details><summary>Compared reports</summary>\n\n| | Old | New |\n|---|---|---|\n"
        let rows: [(String, (ReportSnapshot.Provenance) -> String)] = [
            ("Bundle id", { $0.bundleIdentifier ?? "unknown" }), ("App version", { $0.appVersion ?? "unknown" }),
            ("Exported", { $0.exportedAt ?? "unknown" }), ("Generated", { $0.generatedAt }),
            ("Tool", { "\($0.toolName) \($0.toolVersion)" }),
            ("Report", { $0.source }), ("Container", { "\($0.containerPath) (\($0.layout))" }),
        ]
        for (label, value) in rows {
            markdown += "| \(label) | \(MarkdownEscaping.cell(value(diff.old), limit: 500)) "
            markdown += "| \(MarkdownEscaping.cell(value(diff.new), limit: 500)) |\n"
        }
        return markdown + "\n</details>\n\n"
    }

    private func locations() -> String {
        var markdown = "| Location | Old | New | Δ | % | Files Δ |\n|---|---:|---:|---:|---:|---:|\n"
        let row = { (label: String, change: SizeChange) in
            "| \(label) | " + Self.sizeCells(change) + " \(DiffSigned.count(change.filesDelta)) |\n"
        }
        for location in Location.allCases {
            let change = diff.location(location)
            if change.oldOrZero != .zero || change.newOrZero != .zero { markdown += row(location.title, change) }
        }
        markdown += row("**\(Figure.onDisk.name)**", diff.onDisk) + "\n"
        markdown += "<details><summary>Documents &amp; Data, backup, purgeable</summary>\n\n"
        markdown += "| Total | Old | New | Δ | % |\n|---|---:|---:|---:|---:|\n"
        for (id, figure) in DiffLabels.secondaryTotals {
            markdown += "| \(Self.cell(figure.name)) | " + Self.sizeCells(diff.total(id)) + "\n"
        }
        return markdown + "\n</details>\n\n"
    }

    static func cell(_ text: String) -> String { MarkdownEscaping.cell(text) }

    /// "old | new | delta | % |": four cells and their closing pipes.
    static func sizeCells(_ change: SizeChange) -> String {
        let cells = change.allocatedCells
        return "\(cells[0]) | \(cells[1]) | \(cells[2]) | \(cell(cells[3])) |"
    }

    /// A titled block: open when short, folded into `<details>` when longer than `openRows`.
    static func block(_ title: String, count: Int, rows: Int, _ body: String) -> String {
        if rows <= openRows { return "#### \(title) (\(count))\n\n" + body + "\n" }
        return "<details><summary><b>\(title)</b> (\(count))</summary>\n\n" + body + "\n</details>\n\n"
    }
}
