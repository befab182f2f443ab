import StocktakeModel
import StocktakeRendering

/// The diff as plain text for the terminal (the default format): both sides, the gates, tables of sizes
/// by location, folder and file, then groups, budgets and findings. No colour; every name cleaned of
/// control characters. Sizes as the audit's terminal summary prints them (`ByteCount`).
struct TextDiffWriter {
    let diff: ReportDiff
    let gates: [DiffGateResult]
    let options: DiffRenderOptions

    private static func bytes(_ value: Int64) -> String { ByteCount.format(value) }
    private static func signed(_ value: Int64) -> String { DiffSigned.bytes(value, bytes) }

    func render() -> String {
        let lines = header() + gateLines() + locationLines() + TextDiffLists(diff: diff, limit: options.limit).lines()
        return lines.joined(separator: "\n") + "\n"
    }

    private func header() -> [String] {
        var lines = [
            "Stocktake diff, \(VisibleText.render(options.tool.name, as: .terminal)) \(VisibleText.render(options.tool.version, as: .terminal))"
        ]
        var sides = TextTable([.left, .left, .left, .left, .left, .left, .left])
        for (label, side) in [("old", diff.old), ("new", diff.new)] {
            sides.add([
                label, side.bundleIdentifier ?? "(no bundle id)", side.appVersion ?? "(version unknown)",
                "exported " + (side.exportedAt ?? "(unknown)"), "report " + side.generatedAt,
                "\(side.toolName) \(side.toolVersion)", side.source,
            ])
        }
        lines += sides.lines()
        let onDisk = diff.onDisk
        var headline =
            "On disk: \(Self.bytes(onDisk.oldOrZero.allocatedBytes)) → \(Self.bytes(onDisk.newOrZero.allocatedBytes)) "
        headline += "(\(Self.signed(onDisk.allocatedDelta)), "
        headline += "\(Percent.change(old: onDisk.oldOrZero.allocatedBytes, new: onDisk.newOrZero.allocatedBytes)))"
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
        for location in Location.allCases {
            table.add(Self.row(DiffLabels.location(location.rawValue), diff.location(location)))
        }
        table.addRule()
        table.add(Self.row(Figure.onDisk.name, diff.onDisk))
        var totals = TextTable([.left, .right, .right, .right, .right])
        totals.add(["Total", "Old", "New", "Delta", "%"])
        for (id, figure) in DiffLabels.secondaryTotals {
            let change = diff.total(id)
            let (old, new) = (change.oldOrZero.allocatedBytes, change.newOrZero.allocatedBytes)
            totals.add([
                figure.name, Self.bytes(old), Self.bytes(new), Self.signed(change.allocatedDelta),
                Percent.change(old: old, new: new),
            ])
        }
        return ["", "Locations (allocated bytes; On disk is everything, folders included)"] + table.lines()
            + [""] + totals.lines()
    }

    /// Allocated old, new, delta, %; apparent delta, %; files old, new, delta.
    static func row(_ label: String, _ change: SizeChange) -> [String] {
        let (old, new) = (change.oldOrZero, change.newOrZero)
        return [
            label, bytes(old.allocatedBytes), bytes(new.allocatedBytes), signed(change.allocatedDelta),
            Percent.change(old: old.allocatedBytes, new: new.allocatedBytes),
            signed(change.apparentDelta), Percent.change(old: old.apparentBytes, new: new.apparentBytes),
            String(old.files), String(new.files), DiffSigned.count(change.filesDelta),
        ]
    }

    /// Old, new, delta and % of allocated bytes, then the name last (names vary in width).
    static func sizeCells(_ change: SizeChange) -> [String] {
        let (old, new) = (change.oldOrZero.allocatedBytes, change.newOrZero.allocatedBytes)
        return [bytes(old), bytes(new), signed(change.allocatedDelta), Percent.change(old: old, new: new)]
    }

    static func othersLine(_ count: Int, _ delta: Int64) -> String {
        "  " + DiffSigned.othersLine(count: count, allocatedDelta: delta, bytes)
    }
}
