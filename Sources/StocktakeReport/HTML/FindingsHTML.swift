import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// The policy findings, one group per rule (most severe, then most bytes at stake, first; the same ranking as the
/// terminal and `summary.md`). Each group states its fix as text and shows its top findings; the rest open on demand,
/// as do the groups after the first few (their summaries keep rule, count and bytes in view). Rows are stacked blocks,
/// not table columns, so a phone shows path, size, message and fix without scrolling sideways.
struct FindingsHTML {
    let findings: [Finding]
    let baseline: BaselineSummary?
    /// Rows shown per group before "N more".
    static let rowsShown = 5
    /// Rows written per group at all (the JSON has every one).
    static let rowsWritten = 200
    /// Groups open when the page loads, as many as the verdict names: the page ends whatever the number of rules.
    static let groupsOpen = ReportVerdict.worstShown

    func render() -> HTML {
        var html = HTMLPieces.sectionStart(id: "findings", title: "Findings")
        let count = baseline?.suppressed ?? 0
        let suppressed = count > 0 ? " \(Plural.count(count, "finding")) suppressed by the baseline." : ""
        guard !findings.isEmpty else {
            return html + "<p class=\"muted\">No rule found anything to report.\(suppressed)</p>\n"
                + HTMLPieces.sectionEnd
        }
        let groups = FindingGroup.rank(findings)
        let counts = findings.severityCounts(number: HTMLFormatting.grouped).joined(separator: " · ")
        html +=
            "<p class=\"lead\">\(counts) in \(Plural.count(groups.count, "rule")), most severe and most bytes at stake first."
        html += "\(suppressed) Run <code>stocktake rules ID</code> for a rule's rationale.</p>\n"
        for (rank, group) in groups.enumerated() { html += render(group, open: rank < Self.groupsOpen) }
        return html + HTMLPieces.sectionEnd
    }

    private func render(_ group: FindingGroup, open: Bool) -> HTML {
        let title = RuleRegistry.rule(id: group.rule)?.description.title ?? group.rule
        var html: HTML = open ? "<details class=\"fgroup\" open><summary>" : "<details class=\"fgroup\"><summary>"
        html += "<span class=\"tag sev-\(group.severity.rawValue)\">\(group.severity.rawValue)</span> "
        html += "<span class=\"fg-title\">\(title)</span> <code class=\"muted\">\(group.rule)</code>"
        html += "<span class=\"fg-figures\">\(HTMLFormatting.count(group.findings.count, "finding"))"
        if group.bytes > 0 { html += " · \(HTMLPieces.size(group.bytes)) at stake" }
        html += "</span></summary>\n"
        if let fix = group.sharedFix { html += "<p class=\"fix\"><strong>Fix:</strong> \(visible: fix)</p>\n" }
        let written = group.findings.prefix(Self.rowsWritten)
        html += rows(written.prefix(Self.rowsShown), showFix: group.sharedFix == nil)
        if written.count > Self.rowsShown {
            html +=
                "<details class=\"fmore\"><summary>\(HTMLFormatting.grouped(written.count - Self.rowsShown)) more</summary>\n"
            html += rows(written.dropFirst(Self.rowsShown), showFix: group.sharedFix == nil)
            html += "</details>\n"
        }
        if group.findings.count > written.count {
            html +=
                "<p class=\"note\">\(HTMLFormatting.grouped(group.findings.count - written.count)) more are listed in the JSON report.</p>\n"
        }
        return html + "</details>\n"
    }

    private func rows(_ findings: ArraySlice<Finding>, showFix: Bool) -> HTML {
        var html: HTML = "<ol class=\"frows\">\n"
        for finding in findings {
            let path = finding.path.isEmpty ? "(container root)" : HTML.path(Array(finding.path.utf8))
            html += "<li><div class=\"f-head\"><span class=\"path\">\(path)</span>"
            if let bytes = finding.bytes { html += "<span class=\"f-size\">\(HTMLPieces.size(bytes))</span>" }
            html += "</div><div class=\"f-message\">\(visible: finding.message)</div>"
            if showFix { html += "<div class=\"fix\"><strong>Fix:</strong> \(visible: finding.fix)</div>" }
            html += "</li>\n"
        }
        return html + "</ol>\n"
    }
}
