import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// The policy findings: counts by severity, then a table (most severe first, capped; the JSON has all).
struct FindingsHTML {
    let findings: [Finding]
    static let limit = 500

    func render() -> String {
        var html = HTMLPieces.sectionStart(id: "findings", title: "Findings")
        guard !findings.isEmpty else {
            return html + "<p class=\"muted\">No rule found anything to report.</p>\n" + HTMLPieces.sectionEnd
        }
        let counts = findings.severityCounts(includingNone: true, number: HTMLFormatting.grouped)
        html += "<p class=\"lead\">\(counts.joined(separator: " · ")). Run <code>stocktake rules ID</code> for a rule's rationale.</p>\n"
        html += "<div class=\"scroll\"><table data-sortable>\n<thead><tr><th data-type=\"text\">Severity</th>"
        html += "<th data-type=\"text\">Rule</th><th data-type=\"text\">Path</th><th data-type=\"text\">Message</th>"
        html += "<th class=\"num\" data-type=\"number\">Bytes</th></tr></thead>\n<tbody>\n"
        for finding in findings.bySeverity.prefix(Self.limit) {
            html += "<tr><td class=\"nowrap\" data-value=\"\(finding.severity.rawValue)\"><span class=\"tag\">\(finding.severity.rawValue)</span></td>"
            html += "<td class=\"nowrap\">\(HTMLEscaping.escape(finding.rule))</td>"
            html += "<td class=\"path\">\(HTMLEscaping.path(Array(finding.path.utf8)))</td>"
            html += "<td title=\"\(HTMLEscaping.escape("Fix: " + finding.fix))\">\(HTMLEscaping.visibleText(finding.message))</td>"
            html += finding.bytes.map(HTMLPieces.sizeCell) ?? "<td class=\"num\" data-value=\"0\"></td>"
            html += "</tr>\n"
        }
        html += "</tbody>\n</table></div>\n"
        if findings.count > Self.limit {
            html += "<p class=\"note\">\(HTMLFormatting.grouped(findings.count - Self.limit)) more are listed in the JSON report.</p>\n"
        }
        return html + HTMLPieces.sectionEnd
    }
}
