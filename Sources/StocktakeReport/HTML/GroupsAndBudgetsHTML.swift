import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// Configured groups (members by size, like an app's storage screen lists chats) and budgets.
struct GroupsAndBudgetsHTML {
    let report: Report
    static let memberLimit = 100

    func render() -> HTML {
        guard !report.groups.isEmpty || !report.budgets.isEmpty || report.baseline != nil else { return .empty }
        var html = HTMLPieces.sectionStart(id: "groups", title: "Groups and budgets", lead: "From stocktake.yml.")
        for group in report.groups { html += groupTable(group) }
        if !report.budgets.isEmpty { html += budgetTable() }
        if let baseline = report.baseline {
            html +=
                "<p class=\"note\">Baseline: \(HTMLFormatting.grouped(baseline.suppressed)) known findings suppressed; "
            html += "\(HTMLFormatting.grouped(baseline.stale.count)) baseline entries no longer found.</p>\n"
        }
        return html + HTMLPieces.sectionEnd
    }

    private func groupTable(_ group: GroupResult) -> HTML {
        let largest = group.members.first?.total.allocatedBytes ?? 0
        var html: HTML = "<h3>\(visible: group.definition.name) <span class=\"muted\">"
        html +=
            "\(visible: group.definition.pattern) · \(HTMLFormatting.count(group.members.count, "member"))</span></h3>\n"
        guard !group.members.isEmpty else { return html + "<p class=\"muted\">No members.</p>\n" }
        var head: HTML = "<th data-type=\"text\">Member</th><th class=\"num\" data-type=\"number\">Files</th>"
        head += "<th class=\"num\" data-type=\"number\" aria-sort=\"descending\">Allocated</th>"
        head += "<th data-type=\"number\">Share of the largest</th>"
        var rows: HTML = .empty
        for member in group.members.prefix(Self.memberLimit) {
            let tenths = Percent.tenthsOfShare(member.total.allocatedBytes, of: largest)
            rows += "<tr><td class=\"path\" title=\"\(PathText.display(member.path))\">\(visible: member.id)</td>"
            rows += HTMLPieces.countCell(member.total.files) + HTMLPieces.sizeCell(member.total.allocatedBytes)
            rows +=
                "<td data-value=\"\(tenths)\" style=\"min-width:160px\"><span class=\"t-share\"><span class=\"t-track\"><span class=\"t-fill\" "
            rows += "style=\"width:\(HTMLFormatting.decimal(tenths: tenths))%\"></span></span></span></td></tr>\n"
        }
        html += HTMLPieces.table(head: head, rows: rows, open: "<table data-sortable>")
        if group.members.count > Self.memberLimit {
            html +=
                "<p class=\"note\">\(HTMLFormatting.grouped(group.members.count - Self.memberLimit)) smaller members are listed in the JSON report.</p>\n"
        }
        return html
    }

    private func budgetTable() -> HTML {
        var rows: HTML = .empty
        for budget in report.budgets.sorted(by: { ($0.exceeded ? 0 : 1, $0.scope) < ($1.exceeded ? 0 : 1, $1.scope) }) {
            let cell = { (value: Int64) in
                budget.isCount ? HTMLPieces.countCell(Int(clamping: value)) : HTMLPieces.sizeCell(value)
            }
            rows += "<tr><td>\(visible: budget.scope)</td>\(cell(budget.limit))\(cell(budget.actual))"
            rows += "<td>\(budget.exceeded ? "<span class=\"tag\">exceeded</span>" : "within" as HTML)</td></tr>\n"
        }
        let head: HTML = "<th>Scope</th><th class=\"num\">Limit</th><th class=\"num\">Actual</th><th>Status</th>"
        return "<h3>Budgets</h3>\n" + HTMLPieces.table(head: head, rows: rows)
    }
}
