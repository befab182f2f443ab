import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// The top of the diff page: headline cards, where the two reports came from, and the gates.
struct HTMLDiffSummary {
    let diff: ReportDiff
    let gates: [DiffGateResult]

    func render() -> String {
        var html = HTMLPieces.sectionStart(id: "summary", title: "Summary", lead: "Allocated sizes, old → new.")
        html += "<div class=\"cards\">\n"
        for id in ["onDisk", "documentsAndData", "backup.included", "purgeable"] {
            let change = diff.total(id)
            let old = change.oldOrZero.allocatedBytes, new = change.newOrZero.allocatedBytes
            let percent = "<span class=\"nowrap\(HTMLDiffPieces.trend(change.allocatedDelta))\">"
                + HTMLEscaping.escape(Percent.change(old: old, new: new)) + "</span>"
            html += card(
                HTMLEscaping.escape(DiffLabels.total(id)), HTMLPieces.size(new),
                "was \(HTMLPieces.size(old)) · \(HTMLDiffPieces.delta(change.allocatedDelta)) " + percent)
        }
        let findings = diff.findings
        html += card(
            "Findings", "\(HTMLFormatting.grouped(findings.new.count)) new",
            "\(HTMLFormatting.grouped(findings.resolved.count)) resolved · \(HTMLFormatting.grouped(findings.unchanged)) unchanged")
        html += "</div>\n" + provenance() + HTMLPieces.sectionEnd
        return html + gateSection()
    }

    /// `label` and `value` are markup built from numbers and escaped text.
    private func card(_ label: String, _ value: String, _ note: String) -> String {
        "<div class=\"card\"><div class=\"card-label\">\(label)</div><div class=\"card-value\">\(value)</div>"
            + "<div class=\"card-note\">\(note)</div></div>\n"
    }

    private func provenance() -> String {
        var html = "<h3>Compared reports</h3>\n<div class=\"scroll\"><table>\n<thead><tr><th></th><th>Old</th><th>New</th></tr></thead>\n<tbody>\n"
        let rows: [(String, (ReportSnapshot.Provenance) -> String)] = [
            ("Bundle id", { $0.bundleIdentifier ?? "unknown" }), ("App version", { $0.appVersion ?? "unknown" }),
            ("Exported", { $0.exportedAt ?? "unknown" }), ("Generated", { $0.generatedAt }), ("Tool", { "\($0.toolName) \($0.toolVersion)" }),
            ("Report schema", { String($0.schemaVersion) }), ("Report", { $0.source }),
            ("Container", { $0.containerPath }), ("Layout", { $0.layout }),
        ]
        for (label, value) in rows {
            html += "<tr><td class=\"muted nowrap\">\(label)</td><td class=\"path\">\(HTMLEscaping.visibleText(value(diff.old)))</td>"
            html += "<td class=\"path\">\(HTMLEscaping.visibleText(value(diff.new)))</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }

    private func gateSection() -> String {
        guard !gates.isEmpty else { return "" }
        let failed = gates.count { $0.tripped }
        var html = HTMLPieces.sectionStart(
            id: "gates", title: "Gates", lead: "\(failed) failed, \(gates.count - failed) passed.")
        html += "<div class=\"scroll\"><table>\n<thead><tr><th>Result</th><th>Gate</th><th>What it saw</th></tr></thead>\n<tbody>\n"
        for gate in gates {
            html += "<tr><td class=\"nowrap\">" + (gate.tripped ? "<span class=\"tag fail\">FAILED</span>" : "<span class=\"tag pass\">passed</span>")
            html += "</td><td><code>\(HTMLEscaping.visibleText(gate.gate))</code></td><td>\(HTMLEscaping.visibleText(gate.message))</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n" + HTMLPieces.sectionEnd
    }
}
