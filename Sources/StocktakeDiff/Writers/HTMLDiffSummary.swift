import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// The top of the diff page: headline cards, where the two reports came from, and the gates.
extension HTMLDiffWriter {
    func summary() -> HTML {
        var html = HTMLPieces.sectionStart(id: "summary", title: "Summary", lead: "Allocated sizes, old → new.")
        html += "<div class=\"cards\">\n"
        for id in ["onDisk", "documentsAndData", "backup.included", "purgeable"] {
            let change = diff.total(id)
            let (old, new) = (change.oldOrZero.allocatedBytes, change.newOrZero.allocatedBytes)
            let percent: HTML =
                "<span class=\"nowrap\(HTMLDiffPieces.trend(change.allocatedDelta))\">\(Percent.change(old: old, new: new))</span>"
            html += card(
                HTML.text(DiffLabels.total(id)), HTMLPieces.size(new),
                "was \(HTMLPieces.size(old)) · \(HTMLDiffPieces.delta(change.allocatedDelta)) \(percent)")
        }
        let findings = diff.findings
        html += card(
            "Findings", "\(HTMLFormatting.grouped(findings.new.count)) new",
            "\(HTMLFormatting.grouped(findings.resolved.count)) resolved · \(HTMLFormatting.grouped(findings.unchanged)) unchanged"
        )
        html += "</div>\n" + provenance() + HTMLPieces.sectionEnd
        return html + gateSection()
    }

    private func card(_ label: HTML, _ value: HTML, _ note: HTML) -> HTML {
        "<div class=\"card\"><div class=\"card-label\">\(label)</div><div class=\"card-value\">\(value)</div>"
            + "<div class=\"card-note\">\(note)</div></div>\n"
    }

    private func provenance() -> HTML {
        var html: HTML =
            "<h3>Compared reports</h3>\n<div class=\"scroll\"><table>\n<thead><tr><th></th><th>Old</th><th>New</th></tr></thead>\n<tbody>\n"
        let rows: [(String, (ReportSnapshot.Provenance) -> String)] = [
            ("Bundle id", { $0.bundleIdentifier ?? "unknown" }), ("App version", { $0.appVersion ?? "unknown" }),
            ("Exported", { $0.exportedAt ?? "unknown" }), ("Generated", { $0.generatedAt }),
            ("Tool", { "\($0.toolName) \($0.toolVersion)" }), ("Report schema", { String($0.schemaVersion) }),
            ("Report", { $0.source }), ("Container", { $0.containerPath }), ("Layout", { $0.layout }),
        ]
        for (label, value) in rows {
            html += "<tr><td class=\"muted nowrap\">\(label)</td><td class=\"path\">\(visible: value(diff.old))</td>"
            html += "<td class=\"path\">\(visible: value(diff.new))</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }

    private func gateSection() -> HTML {
        guard !gates.isEmpty else { return .empty }
        let failed = gates.count { $0.tripped }
        var html = HTMLPieces.sectionStart(
            id: "gates", title: "Gates", lead: "\(failed) failed, \(gates.count - failed) passed.")
        html +=
            "<div class=\"scroll\"><table>\n<thead><tr><th>Result</th><th>Gate</th><th>What it saw</th></tr></thead>\n<tbody>\n"
        for gate in gates {
            let result: HTML =
                gate.tripped ? "<span class=\"tag fail\">FAILED</span>" : "<span class=\"tag pass\">passed</span>"
            html +=
                "<tr><td class=\"nowrap\">\(result)</td><td><code>\(visible: gate.gate)</code></td><td>\(visible: gate.message)</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n" + HTMLPieces.sectionEnd
    }
}
