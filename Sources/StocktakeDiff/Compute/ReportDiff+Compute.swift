import StocktakeModel
import StocktakePolicy
import StocktakeReport

/// How much of the long lists a diff keeps ranked (writers for people show fewer).
package struct DiffOptions: Sendable {
    /// Folders kept in `directories.shown`; the rest are counted in "N others".
    package var directoryLimit: Int
    /// Build `ReportDiff.growth` (only the HTML page draws it; at a million files it costs a pass over both reports).
    package var growthMap: Bool

    package init(directoryLimit: Int = 20, growthMap: Bool = true) {
        (self.directoryLimit, self.growthMap) = (directoryLimit, growthMap)
    }
}

extension ReportDiff {
    /// Compares two reports of one app: `old` is the earlier run (the base), `new` the later one.
    package static func compute(old: ReportSnapshot, new: ReportSnapshot, options: DiffOptions = DiffOptions())
        -> ReportDiff
    {
        var diff = ReportDiff(
            old: old.provenance, new: new.provenance, totals: totalRows(old.totals, new.totals),
            locations: Location.allCases.map {
                SizeChange(
                    id: $0.rawValue, old: old.totals.byLocation[$0] ?? .zero, new: new.totals.byLocation[$0] ?? .zero)
            }, directories: directoryChanges(old.directories, new.directories, limit: options.directoryLimit),
            files: FileComparison(old: old.files, new: new.files).changes(),
            groups: groupChanges(old.groups, new.groups), budgets: budgetChanges(old.budgets, new.budgets),
            findings: findingChanges(old.findings, new.findings))
        if options.growthMap { diff.growth = GrowthTree(old: old, new: new) }
        return diff
    }

    /// Two reports naming different bundle ids are most likely a mix-up (the wrong folder, a shared reports root): the
    /// diff is still computed, and this line says so. Nil when either does not know its app (no evidence of a mix-up).
    package static func appMismatch(old: ReportSnapshot.Provenance, new: ReportSnapshot.Provenance) -> String? {
        guard let oldID = old.bundleIdentifier, let newID = new.bundleIdentifier, oldID != newID else { return nil }
        return "the reports are of two different apps: OLD \(old.source) is \(oldID), NEW \(new.source) is \(newID)"
    }

    /// The ids `totals` uses, in order (see ReportDiff.totals).
    static func totalRows(_ old: ReportSnapshot.Totals, _ new: ReportSnapshot.Totals) -> [SizeChange] {
        [
            SizeChange(id: totalID(.onDisk), old: old.onDisk, new: new.onDisk),
            SizeChange(id: totalID(.documentsAndData), old: old.documentsAndData, new: new.documentsAndData),
            SizeChange(id: totalID(.purgeable), old: old.purgeable, new: new.purgeable),
        ]
            + [BackupState.included, .excluded, .excludedBySystem, .unknown].map {
                SizeChange(id: totalID(backup: $0), old: old.backup[$0] ?? .zero, new: new.backup[$0] ?? .zero)
            }
    }

    /// A total's id: its key in report.json's `totals`.
    static func totalID(_ key: ReportKeys.Totals) -> String { key.rawValue }

    /// A backup state's total: `backup.<state>`, its key path in report.json's `totals`.
    static func totalID(backup state: BackupState) -> String {
        ReportKeys.Totals.backup.rawValue + "." + state.rawValue
    }

    /// Folders whose subtree figures changed (or that appeared or went), ranked by |allocated delta|.
    /// The container root is left out: it is the TOTAL row.
    static func directoryChanges(_ old: EntryTable, _ new: EntryTable, limit: Int) -> ListHead<SizeChange> {
        var changes: [SizeChange] = []
        PathJoin.forEach(old: old, new: new) { o, n in
            let (before, after) = (o.map(old.size(at:)), n.map(new.size(at:)))
            guard before != after else { return }
            // The new side's location when both have the folder.
            let (table, row) = n.map { (new, $0) } ?? (old, o!)
            changes.append(SizeChange(id: table.path(at: row), old: before, new: after, location: table.locations[row]))
        }
        return ListHead(byMagnitude(changes.filter { !$0.id.isEmpty }), limit: max(0, limit))
    }

    /// Largest absolute allocated change first; ties by apparent change, then by id, so output is stable.
    static func byMagnitude(_ rows: [SizeChange]) -> [SizeChange] {
        rows.sorted { a, b in
            let (x, y) = (a.allocatedDelta.magnitude, b.allocatedDelta.magnitude)
            if x != y { return x > y }
            let (p, q) = (a.apparentDelta.magnitude, b.apparentDelta.magnitude)
            if p != q { return p > q }
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
    }

    static func groupChanges(
        _ old: [String: [ReportSnapshot.GroupMember]], _ new: [String: [ReportSnapshot.GroupMember]]
    ) -> [GroupChange] {
        Set(old.keys).union(new.keys).sorted().map { name in
            let before = Dictionary((old[name] ?? []).map { ($0.id, $0.size) }, uniquingKeysWith: { first, _ in first })
            let after = Dictionary((new[name] ?? []).map { ($0.id, $0.size) }, uniquingKeysWith: { first, _ in first })
            let members = Set(before.keys).union(after.keys).map { SizeChange(id: $0, old: before[$0], new: after[$0]) }
            return GroupChange(name: name, members: byMagnitude(members))
        }
    }

    static func budgetChanges(_ old: [ReportSnapshot.Budget], _ new: [ReportSnapshot.Budget]) -> [BudgetChange] {
        func key(_ budget: ReportSnapshot.Budget) -> String { "\(budget.scope)\u{0}\(budget.unit)" }
        let before = Dictionary(old.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        return Set(before.keys).union(after.keys).sorted().map { key in
            BudgetChange(scope: (after[key] ?? before[key])!.scope, old: before[key], new: after[key])
        }
    }

    /// Matched by fingerprint (rule + path + what distinguishes two findings at one path).
    static func findingChanges(_ old: [ReportSnapshot.FindingRecord], _ new: [ReportSnapshot.FindingRecord])
        -> FindingChanges
    {
        let (before, after) = (Set(old.map(\.fingerprint)), Set(new.map(\.fingerprint)))
        func ranked(_ findings: [ReportSnapshot.FindingRecord]) -> [ReportSnapshot.FindingRecord] {
            findings.sorted { a, b in
                if a.severity != b.severity { return a.severity > b.severity }
                if a.rule != b.rule { return a.rule < b.rule }
                return a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
            }
        }
        return FindingChanges(
            new: ranked(new.filter { !before.contains($0.fingerprint) }),
            resolved: ranked(old.filter { !after.contains($0.fingerprint) }),
            unchanged: new.filter { before.contains($0.fingerprint) }.count)
    }
}
