import StocktakeModel
import StocktakeRendering

/// The diff as plain text for the terminal (the default format): both sides, the gates, tables of sizes
/// by location, folder and file, then groups, budgets and findings. No colour; every name cleaned of
/// control characters. Sizes as the audit's terminal summary prints them (`ByteCount`).
struct TextDiffWriter {
    let diff: ReportDiff
    let gates: [DiffGateResult]
    let options: DiffRenderOptions

    func render() -> String { (header() + gateLines() + locationLines() + lists()).joined(separator: "\n") + "\n" }

    private func header() -> [String] {
        var lines = [VisibleText.render("Stocktake diff, \(options.tool.name) \(options.tool.version)", as: .terminal)]
        var sides = TextTable([.left, .left, .left, .left, .left, .left, .left])
        for (label, side) in [("old", diff.old), ("new", diff.new)] {
            sides.add([
                label, side.bundleIdentifier ?? "(no bundle id)", side.appVersion ?? "(version unknown)",
                "exported " + (side.exportedAt ?? "(unknown)"), "report " + side.generatedAt,
                "\(side.toolName) \(side.toolVersion)", side.source,
            ])
        }
        lines += sides.lines()
        let onDisk = diff.onDisk.allocatedCells
        var headline = "On disk: \(onDisk[0]) → \(onDisk[1]) (\(onDisk[2]), \(onDisk[3]))"
        if let findings = DiffLabels.findingsSummary(diff.findings) { headline += " · " + findings }
        return lines + ["", headline]
    }

    private func gateLines() -> [String] {
        guard !gates.isEmpty else { return [] }
        var table = TextTable([.left, .left, .left])
        for gate in gates { table.add([gate.tripped ? "FAILED gate" : "passed gate", gate.gate, gate.message]) }
        return ["", "Gates"] + table.lines()
    }

    private func locationLines() -> [String] {
        var table = TextTable([.left] + [TextTable.Alignment](repeating: .right, count: 9))
        table.add(["Location", "Old", "New", "Delta", "%", "Apparent Δ", "%", "Files old", "Files new", "Files Δ"])
        table.addRule()
        for location in Location.allCases { table.add(Self.row(location.title, diff.location(location))) }
        table.addRule()
        table.add(Self.row(Figure.onDisk.name, diff.onDisk))
        var totals = TextTable([.left, .right, .right, .right, .right])
        totals.add(["Total", "Old", "New", "Delta", "%"])
        for (id, figure) in DiffLabels.secondaryTotals { totals.add([figure.name] + diff.total(id).allocatedCells) }
        return ["", "Locations (allocated bytes; On disk is everything, folders included)"] + table.lines()
            + [""] + totals.lines()
    }

    /// Allocated old, new, delta, %; apparent delta, %; files old, new, delta.
    private static func row(_ label: String, _ change: SizeChange) -> [String] {
        let (old, new) = (change.oldOrZero, change.newOrZero)
        return [label] + change.allocatedCells + [
            ByteCount.signed(change.apparentDelta), Percent.change(old: old.apparentBytes, new: new.apparentBytes),
            String(old.files), String(new.files), DiffSigned.count(change.filesDelta),
        ]
    }
}
