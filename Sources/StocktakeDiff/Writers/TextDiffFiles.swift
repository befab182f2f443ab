import StocktakeModel
import StocktakeRendering

/// The text diff's lists: folders and files, each the head of its list (`limit` rows) and an others line, then
/// groups, budgets and findings.
extension TextDiffWriter {
    private var limit: Int { options.limit }

    func lists() -> [String] {
        var lines = sizeList("Directories", ListHead(diff.directories, limit: limit), empty: "no folder changed")
        let files = diff.files
        lines += moves("Moved", files.moved, leftBehind: false)
        lines += moves("Left behind", files.leftBehind, leftBehind: true)
        lines += sizeList("Added files", ListHead(files.added, limit: limit), total: files.added.count)
        lines += sizeList("Removed files", ListHead(files.removed, limit: limit), total: files.removed.count)
        lines += sizeList("Changed files", ListHead(files.changed, limit: limit), total: files.changed.count)
        for group in diff.groups {
            let title = VisibleText.render(
                "Group \(group.name) (\(Plural.count(group.members.count, "member")))", as: .terminal)
            lines += ["", title] + sizeRows(ListHead(group.members, limit: limit), name: "Member")
        }
        return lines + budgets() + findings()
    }

    private func sizeList(_ title: String, _ head: ListHead<SizeChange>, total: Int? = nil, empty: String? = nil)
        -> [String]
    {
        let heading = "\n" + title + (total.map { " (\($0))" } ?? "")
        guard !head.shown.isEmpty || head.othersCount > 0 else { return empty.map { [heading, "  " + $0] } ?? [] }
        return [heading] + sizeRows(head, name: "Path")
    }

    /// Old, new, delta and % of allocated bytes, then the name last (names vary in width); the others line.
    private func sizeRows(_ head: ListHead<SizeChange>, name: String) -> [String] {
        guard !head.shown.isEmpty else { return Self.others(head) }
        var table = TextTable([.right, .right, .right, .right, .left])
        table.add(["Old", "New", "Delta", "%", name])
        for change in head.shown { table.add(change.allocatedCells + [change.id]) }
        return table.lines() + Self.others(head)
    }

    private static func others<Element>(_ head: ListHead<Element>) -> [String] {
        head.othersLine.map { ["  " + $0] } ?? []
    }

    private func moves(_ title: String, _ moves: [FileMove], leftBehind: Bool) -> [String] {
        guard !moves.isEmpty else { return [] }
        let head = ListHead(moves, limit: limit) { $0.allocatedDelta }
        var lines = ["", "\(title) (\(moves.count))"]
        if leftBehind {
            for move in head.shown {
                var line = "  warning: copied to \(move.newPath) but the original at \(move.oldPath) is still there "
                line += "(\(ByteCount.format(move.new.allocatedBytes)) each, \(DiffLabels.evidence(move.evidence)))"
                lines.append(VisibleText.render(line, as: .terminal))
            }
        } else if !head.shown.isEmpty {
            var table = TextTable([.right, .right, .right, .left])
            table.add(["Old", "New", "Delta", "Old path → new path (evidence)"])
            for move in head.shown {
                table.add([
                    ByteCount.format(move.old.allocatedBytes), ByteCount.format(move.new.allocatedBytes),
                    ByteCount.signed(move.allocatedDelta),
                    "\(move.oldPath) → \(move.newPath) (\(DiffLabels.evidence(move.evidence)))",
                ])
            }
            lines += table.lines()
        }
        return lines + Self.others(head)
    }

    private func budgets() -> [String] {
        guard !diff.budgets.isEmpty else { return [] }
        var table = TextTable([.left, .left, .left, .left])
        table.add(["Scope", "Old (actual of limit)", "New (actual of limit)", "Status"])
        for budget in diff.budgets {
            let status = BudgetStatus(budget)
            table.add([
                budget.scope, BudgetStatus.side(budget.old), BudgetStatus.side(budget.new),
                status == .nowExceeded ? status.rawValue.uppercased() : status.rawValue,
            ])
        }
        return ["", "Budgets"] + table.lines()
    }

    private func findings() -> [String] {
        let findings = diff.findings
        var lines = [
            "",
            "Findings: \(findings.new.count) new, \(findings.resolved.count) resolved, \(findings.unchanged) unchanged",
        ]
        for (title, list) in [("New", findings.new), ("Resolved", findings.resolved)] where !list.isEmpty {
            lines.append("  \(title)")
            var table = TextTable([.left, .left, .left])
            for finding in list.prefix(limit) {
                let path = finding.path.isEmpty ? "(container root)" : finding.path
                table.add([finding.severity.rawValue, finding.rule, path + ": " + finding.message])
            }
            lines += table.lines(indent: "    ")
            if list.count > limit { lines.append("    … and \(list.count - limit) more") }
        }
        return lines
    }
}
