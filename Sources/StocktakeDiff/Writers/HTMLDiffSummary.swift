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
                "<span class=\"nowrap\(Pieces.trend(change.allocatedDelta))\">\(Percent.change(old: old, new: new))</span>"
            html += HTMLPieces.card(
                HTML.text(DiffLabels.total(id)), HTMLPieces.size(new),
                "was \(HTMLPieces.size(old)) · \(Pieces.delta(change.allocatedDelta)) \(percent)")
        }
        let findings = diff.findings
        html += HTMLPieces.card(
            "Findings", "\(HTMLFormatting.grouped(findings.new.count)) new",
            "\(HTMLFormatting.grouped(findings.resolved.count)) resolved · \(HTMLFormatting.grouped(findings.unchanged)) unchanged"
        )
        html += "</div>\n" + provenance() + HTMLPieces.sectionEnd
        return html + gateSection()
    }

    private func provenance() -> HTML {
        let rows: [(String, (ReportSnapshot.Provenance) -> String)] = [
            ("Bundle id", { $0.bundleIdentifier ?? "unknown" }), ("App version", { $0.appVersion ?? "unknown" }),
            ("Exported", { $0.exportedAt ?? "unknown" }), ("Generated", { $0.generatedAt }),
            ("Tool", { "\($0.toolName) \($0.toolVersion)" }), ("Report schema", { String($0.schemaVersion) }),
            ("Report", { $0.source }), ("Container", { $0.containerPath }), ("Layout", { $0.layout }),
        ]
        let cells = rows.map { label, value -> HTML in
            "<tr><td class=\"muted nowrap\">\(label)</td><td class=\"path\">\(visible: value(diff.old))</td>"
                + "<td class=\"path\">\(visible: value(diff.new))</td></tr>\n"
        }
        return "<h3>Compared reports</h3>\n"
            + HTMLPieces.table(head: "<th></th><th>Old</th><th>New</th>", rows: cells.joined())
    }

    private func gateSection() -> HTML {
        guard !gates.isEmpty else { return .empty }
        let failed = gates.count { $0.tripped }
        var html = HTMLPieces.sectionStart(
            id: "gates", title: "Gates", lead: "\(failed) failed, \(gates.count - failed) passed.")
        let rows = gates.map { gate -> HTML in
            let result: HTML =
                gate.tripped ? "<span class=\"tag fail\">FAILED</span>" : "<span class=\"tag pass\">passed</span>"
            return
                "<tr><td class=\"nowrap\">\(result)</td><td><code>\(visible: gate.gate)</code></td><td>\(visible: gate.message)</td></tr>\n"
        }
        html += HTMLPieces.table(head: "<th>Result</th><th>Gate</th><th>What it saw</th>", rows: rows.joined())
        return html + HTMLPieces.sectionEnd
    }
}
