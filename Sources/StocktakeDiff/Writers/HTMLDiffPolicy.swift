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
            html += "<h3>\(visible: group.name) "
            html +=
                "<span class=\"muted\">\(Plural.count(group.members.count, "member", number: HTMLFormatting.grouped(group.members.count)))</span></h3>\n"
            html += sizeTable(
                ListHead(group.members, limit: limit), name: "Member", isPath: false, empty: "No members.")
        }
        if !diff.budgets.isEmpty {
            html +=
                "<h3>Budgets</h3>\n<div class=\"scroll\"><table>\n<thead><tr><th>Scope</th><th class=\"num\">Old</th>"
            html += "<th class=\"num\">New</th><th>Status</th></tr></thead>\n<tbody>\n"
            for budget in diff.budgets {
                let status = BudgetStatus(budget)
                let exceeded = status == .nowExceeded || status == .stillExceeded
                html += "<tr><td>\(visible: budget.scope)</td>"
                html += "<td class=\"num\">\(BudgetStatus.side(budget.old))</td>"
                html += "<td class=\"num\">\(BudgetStatus.side(budget.new))</td>"
                html +=
                    "<td>\(exceeded ? "<span class=\"tag fail\">\(status.rawValue)</span>" : HTML.text(status.rawValue))</td></tr>\n"
            }
            html += "</tbody>\n</table></div>\n"
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
                html += HTMLDiffPieces.empty("None.")
                continue
            }
            html +=
                "<div class=\"scroll\"><table>\n<thead><tr><th>Severity</th><th>Rule</th><th>Path</th><th>Message</th>"
            html += "<th class=\"num\">Bytes</th></tr></thead>\n<tbody>\n"
            for finding in list.prefix(limit) {
                let path =
                    finding.path.isEmpty
                    ? "<span class=\"muted\">(container root)</span>" : HTMLDiffPieces.path(finding.path)
                html += "<tr><td class=\"nowrap\"><span class=\"tag\">\(finding.severity.rawValue)</span></td>"
                html += "<td class=\"nowrap\">\(visible: finding.rule)</td><td class=\"path\">\(path)</td>"
                html += "<td>\(visible: finding.message)</td>"
                html += "\(finding.bytes.map(HTMLPieces.sizeCell) ?? "<td class=\"num\"></td>")</tr>\n"
            }
            html += "</tbody>\n</table></div>\n"
            if list.count > limit {
                html += "<p class=\"note\">… and \(HTMLFormatting.grouped(list.count - limit)) more — "
                html += "the JSON format of the diff lists every row.</p>\n"
            }
        }
        return html + HTMLPieces.sectionEnd
    }
}
