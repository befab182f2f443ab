import StocktakeModel

/// How a size moved from one run to the next, for "change since the previous run".
package struct RunSizeChange: Sendable, Equatable {
    package let before: Int64
    package let after: Int64

    /// `after - before`, stopping at the Int64 limits rather than trapping.
    package var delta: Int64 { after.saturatingSubtract(before) }

    /// The change in tenths of a percent of `before`, rounded; nil when `before` is 0 (nothing to compare to).
    package var tenthsOfPercent: Int? {
        guard before != 0 else { return nil }
        let tenths = (Double(delta) / Double(before.magnitude) * 1000).rounded()
        return Int(max(-1e15, min(1e15, tenths)))
    }

    /// "+3.4%", "-0.5%", "+<0.1%" for a sliver, "new" when there was nothing before, "0%" when unchanged.
    package var percentText: String {
        guard delta != 0 else { return "0%" }
        let sign = delta > 0 ? "+" : "-"
        guard let tenths = tenthsOfPercent else { return "new" }
        let magnitude = tenths.magnitude
        return magnitude == 0 ? sign + "<0.1%" : sign + "\(magnitude / 10).\(magnitude % 10)%"
    }

    /// "+1.2 MB (+3.4%)", "-500 KB (-1.1%)" or "unchanged", with sizes written by `bytes`.
    package func text(bytes: (Int64) -> String) -> String {
        guard delta != 0 else { return "unchanged" }
        return (delta > 0 ? "+" : "") + bytes(delta) + " (\(percentText))"
    }
}

extension HistoryRun {
    package func onDiskChange(since previous: HistoryRun) -> RunSizeChange {
        RunSizeChange(before: previous.onDisk.allocatedBytes, after: onDisk.allocatedBytes)
    }
}
