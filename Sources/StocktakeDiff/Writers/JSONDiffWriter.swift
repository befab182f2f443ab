import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// The diff for scripts (contract, Reports/diff.schema.json): sorted keys, integer bytes, every file and finding
/// (no limit) and the `--limit` largest folder changes, the rest summed in `directoriesNotShown`. A row is `{delta,
/// new, old, percent}`: a side lacking the row is null, and a percent is null when the old side was 0 and the new not.
struct JSONDiffWriter {
    private typealias K = DiffKeys

    let diff: ReportDiff
    let gates: [DiffGateResult]
    let options: DiffRenderOptions

    func render() throws -> [UInt8] {
        var bytes: [UInt8] = []
        let json = JSONStream { bytes.append(contentsOf: $0) }
        try json.object {
            try json.array(K.Document.budgets) {
                for budget in diff.budgets {
                    try json.object(compact: true) {
                        try json.field(K.Budget.new) { try writeBudgetSide(budget.new, json) }
                        try json.field(K.Budget.old) { try writeBudgetSide(budget.old, json) }
                        try json.field(K.Budget.scope, budget.scope)
                        try json.field(K.Budget.unit, budget.new?.unit ?? budget.old?.unit ?? "allocatedBytes")
                    }
                }
            }
            try json.array(K.Document.directories) {
                for change in diff.directories.shown { try writeRow(change, json, path: change.id) }
            }
            try json.object(K.Document.directoriesNotShown, compact: true) {
                try json.field(K.NotShown.allocatedBytes, diff.directories.othersAllocatedDelta)
                try json.field(K.NotShown.count, diff.directories.othersCount)
            }
            try json.object(K.Document.files) {
                let files = diff.files
                try json.field(K.Files.added) { try writeFileRows(files.added, json) }
                try json.field(K.Files.changed) { try writeFileRows(files.changed, json) }
                try json.field(K.Files.leftBehind) { try writeMoves(files.leftBehind, json) }
                try json.field(K.Files.moved) { try writeMoves(files.moved, json) }
                try json.field(K.Files.removed) { try writeFileRows(files.removed, json) }
            }
            try json.object(K.Document.findings) {
                for (key, list) in [(K.Findings.new, diff.findings.new), (.resolved, diff.findings.resolved)] {
                    try json.array(key) { for finding in list { try json.finding(finding) } }
                }
                try json.field(K.Findings.unchanged, diff.findings.unchanged)
            }
            try json.array(K.Document.gates) {
                for gate in gates {
                    try json.object(compact: true) {
                        try json.field(K.Gate.gate, gate.gate)
                        try json.field(K.Gate.message, gate.message)
                        try json.field(K.Gate.tripped, gate.tripped)
                    }
                }
            }
            try json.object(K.Document.groups) {
                for group in diff.groups.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
                    try json.array(group.name) {
                        for member in group.members { try writeRow(member, json, id: member.id) }
                    }
                }
            }
            try json.field(K.Document.locations) {
                try json.object(everyCaseOf: Location.self) { try writeRow(diff.location($0), json) }
            }
            try json.field(K.Document.new) { try writeProvenance(diff.new, json) }
            try json.field(K.Document.old) { try writeProvenance(diff.old, json) }
            try json.field(K.Document.schemaVersion, DiffWriter.jsonSchemaVersion)
            try json.object(K.Document.tool, compact: true) {
                try json.field(K.Tool.name, options.tool.name)
                try json.field(K.Tool.version, options.tool.version)
            }
            try json.object(K.Document.totals) {
                try json.field(ReportKeys.Totals.backup) {
                    try json.object(everyCaseOf: BackupState.self) {
                        try writeRow(diff.total(ReportDiff.totalID(backup: $0)), json)
                    }
                }
                for key in [ReportKeys.Totals.documentsAndData, .onDisk, .purgeable] {
                    try json.field(key) { try writeRow(diff.total(ReportDiff.totalID(key)), json) }
                }
            }
        }
        try json.finish()
        return bytes
    }

    /// `{delta, [id], [location], new, old, [path], percent}` on one line.
    private func writeRow(
        _ change: SizeChange, _ json: JSONStream, id: String? = nil, path: String? = nil, location: Location? = nil
    ) throws {
        let (old, new) = (change.oldOrZero, change.newOrZero)
        try json.object(compact: true) {
            try json.field(K.Row.delta, change.delta)
            try json.field(K.Row.id, ifPresent: id)
            try json.field(K.Row.location, ifPresent: location?.rawValue)
            try json.field(K.Row.new, change.new)
            try json.field(K.Row.old, change.old)
            try json.field(K.Row.path, ifPresent: path)
            try json.object(K.Row.percent) {
                let percent = DiffPercent.value(old:new:)
                try json.field(K.Figures.allocatedBytes, percent(old.allocatedBytes, new.allocatedBytes))
                try json.field(K.Figures.apparentBytes, percent(old.apparentBytes, new.apparentBytes))
                try json.field(K.Figures.files, percent(Int64(old.files), Int64(new.files)))
            }
        }
    }

    private func writeFileRows(_ rows: [SizeChange], _ json: JSONStream) throws {
        try json.array {
            for change in rows {
                // A row read without its location is placed by its path, as the walk places it.
                let location = change.location ?? Zone.of(path: change.id.utf8, isDirectory: false).location
                try writeRow(change, json, path: change.id, location: location)
            }
        }
    }

    private func writeMoves(_ moves: [FileMove], _ json: JSONStream) throws {
        try json.array {
            for move in moves {
                try json.object(compact: true) {
                    try json.field(K.Move.delta, move.change.delta)
                    try json.field(K.Move.evidence, move.evidence.rawValue)
                    try json.field(K.Move.location, move.newLocation.rawValue)
                    try json.field(K.Move.new, move.new)
                    try json.field(K.Move.old, move.old)
                    try json.field(K.Move.oldLocation, move.oldLocation.rawValue)
                    try json.field(K.Move.oldPath, move.oldPath)
                    try json.field(K.Move.path, move.newPath)
                }
            }
        }
    }

    private func writeBudgetSide(_ budget: ReportSnapshot.Budget?, _ json: JSONStream) throws {
        guard let budget else { return try json.null() }
        try json.object {
            try json.field(K.BudgetSide.actual, budget.actual)
            try json.field(K.BudgetSide.exceeded, budget.exceeded)
            try json.field(K.BudgetSide.limit, budget.limit)
        }
    }

    private func writeProvenance(_ side: ReportSnapshot.Provenance, _ json: JSONStream) throws {
        try json.object {
            try json.field(K.Provenance.appVersion, side.appVersion)
            try json.field(K.Provenance.bundleIdentifier, side.bundleIdentifier)
            try json.field(K.Provenance.containerPath, side.containerPath)
            try json.field(K.Provenance.exportedAt, side.exportedAt)
            try json.field(K.Provenance.generatedAt, side.generatedAt)
            try json.field(K.Provenance.layout, side.layout)
            try json.field(K.Provenance.schemaVersion, side.schemaVersion)
            try json.field(K.Provenance.source, side.source)
            try json.field(K.Provenance.toolName, side.toolName)
            try json.field(K.Provenance.toolVersion, side.toolVersion)
        }
    }
}
