import StocktakeModel
import StocktakeRendering
import StocktakeReport

/// The diff for scripts (contract, Reports/diff.schema.json): sorted keys, integer bytes, every file and finding
/// (no limit) and the `--limit` largest folder changes, the rest summed in `directoriesNotShown`. A row is
/// `{delta, new, old, percent}`: a side lacking the row is null, and a
/// percent is null when the old side was 0 and the new one is not.
struct JSONDiffWriter {
    private typealias K = DiffKeys

    let diff: ReportDiff
    let gates: [DiffGateResult]
    let options: DiffRenderOptions

    func render() throws -> [UInt8] {
        var bytes: [UInt8] = []
        let json = JSONStream { bytes.append(contentsOf: $0) }
        try json.beginObject()
        try json.key(K.Document.budgets)
        try writeBudgets(json)
        try json.key(K.Document.directories)
        try json.beginArray()
        for change in diff.directories.shown { try writeRow(change, json, path: change.id) }
        try json.endArray()
        try json.key(K.Document.directoriesNotShown)
        try json.beginObject(compact: true)
        try json.key(K.NotShown.allocatedBytes)
        try json.int(diff.directories.othersAllocatedDelta)
        try json.key(K.NotShown.count)
        try json.int(diff.directories.othersCount)
        try json.endObject()
        try json.key(K.Document.files)
        try writeFiles(json)
        try json.key(K.Document.findings)
        try writeFindings(json)
        try json.key(K.Document.gates)
        try json.beginArray()
        for gate in gates {
            try json.beginObject(compact: true)
            try json.key(K.Gate.gate)
            try json.string(gate.gate)
            try json.key(K.Gate.message)
            try json.string(gate.message)
            try json.key(K.Gate.tripped)
            try json.bool(gate.tripped)
            try json.endObject()
        }
        try json.endArray()
        try json.key(K.Document.groups)
        try writeGroups(json)
        try json.key(K.Document.locations)
        try json.object(everyCaseOf: Location.self) { try writeRow(diff.location($0), json) }
        try json.key(K.Document.new)
        try writeProvenance(diff.new, json)
        try json.key(K.Document.old)
        try writeProvenance(diff.old, json)
        try json.key(K.Document.schemaVersion)
        try json.int(DiffWriter.jsonSchemaVersion)
        try json.key(K.Document.tool)
        try json.beginObject(compact: true)
        try json.key(K.Tool.name)
        try json.string(options.tool.name)
        try json.key(K.Tool.version)
        try json.string(options.tool.version)
        try json.endObject()
        try json.key(K.Document.totals)
        try writeTotals(json)
        try json.endObject()
        try json.finish()
        return bytes
    }

    // MARK: - Rows

    /// `{delta, [id], [location], new, old, [path], percent}` on one line.
    private func writeRow(
        _ change: SizeChange, _ json: JSONStream, id: String? = nil, path: String? = nil, location: Location? = nil
    ) throws {
        try json.beginObject(compact: true)
        try json.key(K.Row.delta)
        try json.total(
            SizeTotal(
                files: change.filesDelta, apparentBytes: change.apparentDelta, allocatedBytes: change.allocatedDelta))
        if let id {
            try json.key(K.Row.id)
            try json.string(id)
        }
        if let location {
            try json.key(K.Row.location)
            try json.string(location.rawValue)
        }
        try json.key(K.Row.new)
        try optionalTotal(change.new, json)
        try json.key(K.Row.old)
        try optionalTotal(change.old, json)
        if let path {
            try json.key(K.Row.path)
            try json.string(path)
        }
        try json.key(K.Row.percent)
        let old = change.oldOrZero
        let new = change.newOrZero
        try json.beginObject()
        try json.key(K.Figures.allocatedBytes)
        try percent(old.allocatedBytes, new.allocatedBytes, json)
        try json.key(K.Figures.apparentBytes)
        try percent(old.apparentBytes, new.apparentBytes, json)
        try json.key(K.Figures.files)
        try percent(Int64(old.files), Int64(new.files), json)
        try json.endObject()
        try json.endObject()
    }

    private func percent(_ old: Int64, _ new: Int64, _ json: JSONStream) throws {
        if let value = DiffPercent.value(old: old, new: new) { try json.double(value) } else { try json.null() }
    }

    private func optionalTotal(_ total: SizeTotal?, _ json: JSONStream) throws {
        if let total { try json.total(total) } else { try json.null() }
    }

    private func writeTotals(_ json: JSONStream) throws {
        try json.beginObject()
        try json.key(ReportKeys.Totals.backup)
        try json.object(everyCaseOf: BackupState.self) {
            try writeRow(diff.total(ReportDiff.totalID(backup: $0)), json)
        }
        for key in [ReportKeys.Totals.documentsAndData, .onDisk, .purgeable] {
            try json.key(key)
            try writeRow(diff.total(ReportDiff.totalID(key)), json)
        }
        try json.endObject()
    }

    // MARK: - Lists

    private func writeFiles(_ json: JSONStream) throws {
        let files = diff.files
        try json.beginObject()
        for (key, list) in [(K.Files.added, files.added), (.changed, files.changed)] {
            try json.key(key)
            try writeFileRows(list, json)
        }
        try json.key(K.Files.leftBehind)
        try writeMoves(files.leftBehind, json)
        try json.key(K.Files.moved)
        try writeMoves(files.moved, json)
        try json.key(K.Files.removed)
        try writeFileRows(files.removed, json)
        try json.endObject()
    }

    private func writeFileRows(_ rows: [SizeChange], _ json: JSONStream) throws {
        try json.beginArray()
        for change in rows {
            // A row read without its location is placed by its path, as the walk places it.
            let location = change.location ?? Zone.of(path: change.id.utf8, isDirectory: false).location
            try writeRow(change, json, path: change.id, location: location)
        }
        try json.endArray()
    }

    private func writeMoves(_ moves: [FileMove], _ json: JSONStream) throws {
        try json.beginArray()
        for move in moves {
            try json.beginObject(compact: true)
            try json.key(K.Move.delta)
            try json.total(
                SizeTotal(
                    files: move.new.files.saturatingSubtract(move.old.files),
                    apparentBytes: move.new.apparentBytes.saturatingSubtract(move.old.apparentBytes),
                    allocatedBytes: move.allocatedDelta))
            try json.key(K.Move.evidence)
            try json.string(move.evidence.rawValue)
            try json.key(K.Move.location)
            try json.string(move.newLocation.rawValue)
            try json.key(K.Move.new)
            try json.total(move.new)
            try json.key(K.Move.old)
            try json.total(move.old)
            try json.key(K.Move.oldLocation)
            try json.string(move.oldLocation.rawValue)
            try json.key(K.Move.oldPath)
            try json.string(move.oldPath)
            try json.key(K.Move.path)
            try json.string(move.newPath)
            try json.endObject()
        }
        try json.endArray()
    }

    private func writeGroups(_ json: JSONStream) throws {
        try json.beginObject()
        for group in diff.groups.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            try json.key(escaping: group.name)
            try json.beginArray()
            for member in group.members { try writeRow(member, json, id: member.id) }
            try json.endArray()
        }
        try json.endObject()
    }

    private func writeBudgets(_ json: JSONStream) throws {
        try json.beginArray()
        for budget in diff.budgets {
            try json.beginObject(compact: true)
            try json.key(K.Budget.new)
            try writeBudgetSide(budget.new, json)
            try json.key(K.Budget.old)
            try writeBudgetSide(budget.old, json)
            try json.key(K.Budget.scope)
            try json.string(budget.scope)
            try json.key(K.Budget.unit)
            try json.string(budget.new?.unit ?? budget.old?.unit ?? "allocatedBytes")
            try json.endObject()
        }
        try json.endArray()
    }

    private func writeBudgetSide(_ budget: ReportSnapshot.Budget?, _ json: JSONStream) throws {
        guard let budget else { return try json.null() }
        try json.beginObject()
        try json.key(K.BudgetSide.actual)
        try json.int(budget.actual)
        try json.key(K.BudgetSide.exceeded)
        try json.bool(budget.exceeded)
        try json.key(K.BudgetSide.limit)
        try json.int(budget.limit)
        try json.endObject()
    }

    private func writeFindings(_ json: JSONStream) throws {
        try json.beginObject()
        try json.key(K.Findings.new)
        try writeFindingList(diff.findings.new, json)
        try json.key(K.Findings.resolved)
        try writeFindingList(diff.findings.resolved, json)
        try json.key(K.Findings.unchanged)
        try json.int(diff.findings.unchanged)
        try json.endObject()
    }

    private func writeFindingList(_ findings: [ReportSnapshot.FindingRecord], _ json: JSONStream) throws {
        try json.beginArray()
        for finding in findings {
            try json.beginObject(compact: true)
            if let bytes = finding.bytes {
                try json.key(K.Finding.bytes)
                try json.int(bytes)
            }
            try json.key(K.Finding.fingerprint)
            try json.string(finding.fingerprint)
            try json.key(K.Finding.message)
            try json.string(finding.message)
            try json.key(K.Finding.path)
            try json.string(finding.path)
            try json.key(K.Finding.rule)
            try json.string(finding.rule)
            try json.key(K.Finding.severity)
            try json.string(finding.severity.rawValue)
            try json.endObject()
        }
        try json.endArray()
    }

    private func writeProvenance(_ side: ReportSnapshot.Provenance, _ json: JSONStream) throws {
        try json.beginObject()
        try json.key(K.Provenance.appVersion)
        try optionalString(side.appVersion, json)
        try json.key(K.Provenance.bundleIdentifier)
        try optionalString(side.bundleIdentifier, json)
        try json.key(K.Provenance.containerPath)
        try json.string(side.containerPath)
        try json.key(K.Provenance.exportedAt)
        try optionalString(side.exportedAt, json)
        try json.key(K.Provenance.generatedAt)
        try json.string(side.generatedAt)
        try json.key(K.Provenance.layout)
        try json.string(side.layout)
        try json.key(K.Provenance.schemaVersion)
        try json.int(side.schemaVersion)
        try json.key(K.Provenance.source)
        try json.string(side.source)
        try json.key(K.Provenance.toolName)
        try json.string(side.toolName)
        try json.key(K.Provenance.toolVersion)
        try json.string(side.toolVersion)
        try json.endObject()
    }

    private func optionalString(_ value: String?, _ json: JSONStream) throws {
        if let value { try json.string(value) } else { try json.null() }
    }
}
