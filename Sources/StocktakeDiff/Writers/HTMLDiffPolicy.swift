import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// The diff page's configured groups and budgets, and the findings that appeared or were resolved.
extension HTMLDiffWriter {
    func groupsAndBudgets() -> HTML {
        guard !diff.groups.isEmpty || !diff.budgets.isEmpty else { return .empty }
        var html = HTMLPieces.sectionStart(
            id: "groups", title: "Groups and budgets", lead: "From stocktake.yml, on both sides.")
        for group in diff.groups {
            let members = HTMLFormatting.count(group.members.count, "member")
            html += "<h3>\(visible: group.name) <span class=\"muted\">\(members)</span></h3>\n"
            html += sizeTable(
                ListHead(group.members, limit: limit), name: "Member", isPath: false, empty: "No members.")
        }
        if !diff.budgets.isEmpty {
            let rows = diff.budgets.map { budget -> HTML in
                let status = BudgetStatus(budget)
                return "<tr><td>\(visible: budget.scope)</td><td class=\"num\">\(BudgetStatus.side(budget.old))</td>"
                    + "<td class=\"num\">\(BudgetStatus.side(budget.new))</td>"
                    + "<td>\(status.isExceeded ? "<span class=\"tag fail\">\(status.rawValue)</span>" : HTML.text(status.rawValue))</td></tr>\n"
            }
            html += "<h3>Budgets</h3>\n"
            html += HTMLPieces.table(
                head: "<th>Scope</th>" + Pieces.figureHeadings("Old", "New") + "<th>Status</th>", rows: rows.joined())
        }
        return html + HTMLPieces.sectionEnd
    }

    func findings() -> HTML {
        let findings = diff.findings
        var html = HTMLPieces.sectionStart(
            id: "findings", title: "Findings",
            lead:
                "\(findings.new.count) new, \(findings.resolved.count) resolved, \(findings.unchanged) unchanged (matched by fingerprint)."
        )
        for (title, list) in [("New", findings.new), ("Resolved", findings.resolved)] {
            html += "<h3>\(title) (\(HTMLFormatting.grouped(list.count)))</h3>\n"
            guard !list.isEmpty else {
                html += Pieces.empty("None.")
                continue
            }
            let rows = list.prefix(limit).map { finding -> HTML in
                let path =
                    finding.path.isEmpty ? "<span class=\"muted\">(container root)</span>" : Pieces.path(finding.path)
                return "<tr><td class=\"nowrap\"><span class=\"tag\">\(finding.severity.rawValue)</span></td>"
                    + "<td class=\"nowrap\">\(visible: finding.rule)</td><td class=\"path\">\(path)</td>"
                    + "<td>\(visible: finding.message)</td>"
                    + "\(finding.bytes.map(HTMLPieces.sizeCell) ?? "<td class=\"num\"></td>")</tr>\n"
            }
            html += HTMLPieces.table(
                head: "<th>Severity</th><th>Rule</th><th>Path</th><th>Message</th><th class=\"num\">Bytes</th>",
                rows: rows.joined()
            )
            if list.count > limit {
                html += "<p class=\"note\">… and \(HTMLFormatting.grouped(list.count - limit)) more — "
                html += "the JSON format of the diff lists every row.</p>\n"
            }
        }
        return html + HTMLPieces.sectionEnd
    }
}
