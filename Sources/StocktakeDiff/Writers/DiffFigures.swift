import StocktakeModel
import StocktakeReport

/// Percent changes as JSON numbers (the text form is `Percent.change`).
enum DiffPercent {
    /// The same change as a JSON number: nil when the old side was 0 and the new one is not (no finite
    /// percentage), 0 when both are 0, else rounded to one decimal (-100 when the new side is 0).
    static func value(old: Int64, new: Int64) -> Double? {
        if old == 0 { return new == 0 ? 0 : nil }
        let percent = (Double(new) - Double(old)) / Double(old) * 100
        guard percent.isFinite else { return nil }
        // Adding 0 turns -0.0 into 0.0, so an unchanged row never reads "-0.0".
        return (percent * 10).rounded() / 10 + 0
    }
}

/// Signed counts: "+3", "-2", "0".
enum DiffSigned {
    static func count(_ delta: Int) -> String { delta > 0 ? "+\(delta)" : "\(delta)" }

    /// "… and 12 others (+340 KB)": the collapsed tail of a list.
    static func othersLine(count: Int, allocatedDelta: Int64) -> String {
        "… and \(count) \(Plural.noun(count, "other")) (\(ByteCount.signed(allocatedDelta)))"
    }
}

/// Labels for people.
enum DiffLabels {
    /// The id of the whole container's total in `ReportDiff.totals`.
    static let onDisk = ReportDiff.totalID(.onDisk)

    /// The totals shown beside the locations table, in reading order, with the glossary's figure for each
    /// (docs/reports.md, "Figures"), so the diff says what the report says.
    static let secondaryTotals: [(id: String, figure: Figure)] = [
        (ReportDiff.totalID(.documentsAndData), .documentsAndData), (ReportDiff.totalID(backup: .included), .backedUp),
        (ReportDiff.totalID(backup: .excluded), .excludedByApp),
        (ReportDiff.totalID(backup: .excludedBySystem), .excludedByIOS),
        (ReportDiff.totalID(backup: .unknown), .backupUnknown), (ReportDiff.totalID(.purgeable), .purgeable),
    ]

    /// The glossary's name for a total.
    static func total(_ id: String) -> String {
        if id == onDisk { return Figure.onDisk.name }
        return secondaryTotals.first { $0.id == id }?.figure.name ?? id
    }

    static func evidence(_ evidence: FileMove.Evidence) -> String {
        switch evidence {
        case .sameNameAndSize: "same name and size"
        case .sameSizeAndModified: "same size and modification time"
        }
    }

    /// "3 new findings · 1 resolved" (nil when nothing changed).
    static func findingsSummary(_ findings: FindingChanges) -> String? {
        let (new, resolved) = (findings.new.count, findings.resolved.count)
        var parts = new > 0 ? ["\(new) new \(Plural.noun(new, "finding"))"] : []
        if resolved > 0 { parts.append("\(resolved) resolved") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

/// How a budget moved between the two sides.
enum BudgetStatus: String {
    case nowExceeded = "now exceeded"
    case stillExceeded = "still exceeded"
    case backWithin = "back within"
    case within
    case noLongerSet = "no longer set"

    init(_ change: BudgetChange) {
        switch (change.old?.exceeded ?? false, change.new?.exceeded) {
        case (_, nil): self = .noLongerSet
        case (false, true): self = .nowExceeded
        case (true, true): self = .stillExceeded
        case (true, false): self = .backWithin
        case (false, false): self = .within
        }
    }

    var isExceeded: Bool { self == .nowExceeded || self == .stillExceeded }

    /// "4.0 MB of 5 MB", or "–" for a side without this budget.
    static func side(_ budget: ReportSnapshot.Budget?) -> String {
        guard let budget else { return "–" }
        let files = budget.unit == "files"
        let amount = { (value: Int64) in files ? Plural.count(value, "file") : ByteCount.format(value) }
        return amount(budget.actual) + " of " + amount(budget.limit)
    }
}

extension ListHead {
    /// "… and 12 others (+340 KB)", or nil when nothing was left out.
    var othersLine: String? {
        othersCount > 0 ? DiffSigned.othersLine(count: othersCount, allocatedDelta: othersAllocatedDelta) : nil
    }

    /// The first `limit` rows of a list and what the rest add up to.
    init(_ all: [Element], limit: Int, delta: (Element) -> Int64) {
        shown = all.prefix(limit)
        othersCount = all.count - shown.count
        othersAllocatedDelta = all.dropFirst(limit).map(delta).saturatingSum()
    }
}

extension ListHead where Element == SizeChange {
    init(_ all: [SizeChange], limit: Int) { self.init(all, limit: limit) { $0.allocatedDelta } }

    /// A ranked list cut further to `limit`: what it already left out joins the rows cut here.
    init(_ ranked: ListHead<SizeChange>, limit: Int) {
        let head = ListHead(Array(ranked.shown), limit: limit)
        shown = head.shown
        othersCount = head.othersCount + ranked.othersCount
        othersAllocatedDelta = head.othersAllocatedDelta.saturatingAdd(ranked.othersAllocatedDelta)
    }
}

extension FileMove {
    /// The file at its new path against the one at its old path.
    var change: SizeChange { SizeChange(id: newPath, old: old, new: new) }
    var allocatedDelta: Int64 { change.allocatedDelta }
}

extension SizeChange {
    /// The change in every figure: diff.json's `delta`.
    var delta: SizeTotal { SizeTotal(files: filesDelta, apparentBytes: apparentDelta, allocatedBytes: allocatedDelta) }

    /// Old, new, the signed delta and the percent change of allocated bytes, as people read them.
    var allocatedCells: [String] {
        let (old, new) = (oldOrZero.allocatedBytes, newOrZero.allocatedBytes)
        return [
            ByteCount.format(old), ByteCount.format(new), ByteCount.signed(allocatedDelta),
            Percent.change(old: old, new: new),
        ]
    }
}

extension ReportDiff {
    /// A total by id (`onDisk`, `backup.included`, …); an empty row when the diff lacks it.
    func total(_ id: String) -> SizeChange { totals.first { $0.id == id } ?? SizeChange(id: id, old: nil, new: nil) }

    func location(_ location: Location) -> SizeChange {
        locations.first { $0.id == location.rawValue } ?? SizeChange(id: location.rawValue, old: nil, new: nil)
    }

    var onDisk: SizeChange { total(DiffLabels.onDisk) }
}
