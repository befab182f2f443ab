import StocktakeModel
import StocktakeRendering

/// The Markdown diff's lists: folders, files (moved, left behind, added, removed, changed), groups,
/// budgets and findings, each the head of its list with an others row.
extension MarkdownDiffWriter {
    private var limit: Int { options.limit }

    func lists() -> String {
        var markdown = leftBehind()
        markdown += sizeTable("Directories", ListHead(diff.directories, limit: limit), count: nil, name: "Path")
        markdown += moved()
        let files = diff.files
        for (title, list) in [("Added", files.added), ("Removed", files.removed), ("Changed", files.changed)] {
            markdown += sizeTable("\(title) files", ListHead(list, limit: limit), count: list.count, name: "Path")
        }
        for group in diff.groups {
            let members = ListHead(group.members, limit: limit)
            markdown += sizeTable("Group " + Self.cell(group.name), members, count: group.members.count, name: "Member")
        }
        return markdown + budgets() + findings()
    }

    /// Copies whose original stayed: a risk, so shown first and never folded.
    private func leftBehind() -> String {
        let moves = diff.files.leftBehind
        guard !moves.isEmpty else { return "" }
        var markdown =
            "> [!WARNING]\n> **Left behind:** \(moves.count) \(Plural.noun(moves.count, "file was", "files were")) copied "
        markdown += "to a new place while the original stayed.\n>\n"
        let head = ListHead(moves, limit: limit) { $0.allocatedDelta }
        for move in head.shown {
            markdown +=
                "> - copied to \(Self.cell(move.newPath)) but the original at \(Self.cell(move.oldPath)) is still there "
            markdown += "(\(ByteCount.format(move.new.allocatedBytes)) each)\n"
        }
        if let others = head.othersLine { markdown += "> - \(others)\n" }
        return markdown + "\n"
    }

    private func moved() -> String {
        let moves = diff.files.moved
        guard !moves.isEmpty else { return "" }
        let head = ListHead(moves, limit: limit) { $0.allocatedDelta }
        var table = "| Old path | New path | Size | Δ | Evidence |\n|---|---|---:|---:|---|\n"
        for move in head.shown {
            table +=
                "| \(Self.cell(move.oldPath)) | \(Self.cell(move.newPath)) | \(ByteCount.format(move.new.allocatedBytes)) "
            table += "| \(ByteCount.signed(move.allocatedDelta)) | \(DiffLabels.evidence(move.evidence)) |\n"
        }
        table += othersRow(head)
        return Self.block("Moved files", count: moves.count, rows: head.shown.count, table)
    }

    private func sizeTable(_ title: String, _ head: ListHead<SizeChange>, count: Int?, name: String) -> String {
        guard !head.shown.isEmpty || head.othersCount > 0 else { return "" }
        var table = "| \(name) | Old | New | Δ | % |\n|---|---:|---:|---:|---:|\n"
        for change in head.shown { table += "| \(Self.cell(change.id)) | " + Self.sizeCells(change) + "\n" }
        table += othersRow(head)
        return Self.block(title, count: count ?? (head.shown.count + head.othersCount), rows: head.shown.count, table)
    }

    /// The others line as a row of the five-column tables.
    private func othersRow<Element>(_ head: ListHead<Element>) -> String {
        head.othersLine.map { "| \($0) | | | | |\n" } ?? ""
    }

    private func budgets() -> String {
        guard !diff.budgets.isEmpty else { return "" }
        var table = "| Scope | Old | New | Status |\n|---|---:|---:|---|\n"
        for budget in diff.budgets {
            let status = BudgetStatus(budget)
            let statusText = status.isExceeded ? "**\(status.rawValue)**" : status.rawValue
            table += "| \(Self.cell(budget.scope)) | \(BudgetStatus.side(budget.old)) "
            table += "| \(BudgetStatus.side(budget.new)) | \(statusText) |\n"
        }
        return Self.block("Budgets", count: diff.budgets.count, rows: diff.budgets.count, table)
    }

    private func findings() -> String {
        let findings = diff.findings
        var markdown =
            "**Findings:** \(findings.new.count) new, \(findings.resolved.count) resolved, \(findings.unchanged) unchanged.\n\n"
        for (title, list, open) in [
            ("New findings", findings.new, true), ("Resolved findings", findings.resolved, false),
        ] where !list.isEmpty {
            var table = "| Severity | Rule | Path | Message |\n|---|---|---|---|\n"
            for finding in list.prefix(limit) {
                let path = finding.path.isEmpty ? "(container root)" : Self.cell(finding.path)
                table += "| \(finding.severity.rawValue) | \(Self.cell(finding.rule)) | \(path) "
                table += "| \(MarkdownEscaping.cell(finding.message, limit: 500)) |\n"
            }
            if list.count > limit { table += "| … and \(list.count - limit) more | | | |\n" }
            // New findings stay open (the reviewer must see them); resolved ones fold when long.
            markdown += Self.block(title, count: list.count, rows: open ? 0 : min(list.count, limit), table)
        }
        return markdown
    }
}
