import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

/// `stocktake history --format json` (contract): `{"bundleIdentifier", "runs": [...], "source"}`, runs oldest first,
/// sorted keys, integer bytes. Sizes are `{files, apparentBytes, allocatedBytes}` as in `report.json`, and the
/// keys the two share are report.json's (`HistoryKeys`).
package struct HistoryJSONWriter: Sendable {
    private typealias K = HistoryKeys

    package init() {}

    package func write(
        bundleIdentifier: String, source: String = RunSeries.defaultSource, runs: [HistoryRun],
        to sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        let json = JSONStream(sink: sink)
        try json.beginObject()
        try json.key(K.Document.bundleIdentifier)
        try json.string(bundleIdentifier)
        try json.key(K.Document.runs)
        try json.beginArray()
        for run in runs { try writeRun(run, json) }
        try json.endArray()
        try json.key(K.Document.source)
        try json.string(source)
        try json.endObject()
        try json.finish()
    }

    private func writeRun(_ run: HistoryRun, _ json: JSONStream) throws {
        try json.beginObject()
        try json.key(K.Run.appVersion)
        try run.appVersion.map { try json.string($0) } ?? json.null()
        try json.key(K.Run.backup)
        try json.beginObject(compact: true)
        try json.key(K.Backup.excludedBytes)
        try json.int(run.excludedBytes)
        try json.key(K.Backup.includedBytes)
        try json.int(run.backedUpBytes)
        try json.key(K.Backup.unknownBytes)
        try json.int(run.unknownBackupBytes)
        try json.endObject()
        try json.key(K.Run.byLocation)
        try json.object(everyCaseOf: Location.self) { try json.total(run.byLocation[$0] ?? .zero) }
        try json.key(K.Run.documentsAndData)
        try json.total(run.documentsAndData)
        try json.key(K.Run.findings)
        try json.beginObject()
        try json.key(K.Findings.byRule)
        try json.beginObject()
        for (rule, count) in run.findingsByRule.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            try json.key(escaping: rule)
            try json.int(count)
        }
        try json.endObject()
        try json.key(K.Findings.bySeverity)
        try json.object(everyCaseOf: Severity.self, compact: true) { try json.int(run.findingsBySeverity[$0] ?? 0) }
        try json.endObject()
        try json.key(K.Run.generatedAt)
        try json.string(run.generatedAt)
        try json.key(K.Run.onDisk)
        try json.total(run.onDisk)
        try json.key(K.Run.purgeable)
        try json.total(run.purgeable)
        try json.key(K.Run.runID)
        try json.string(run.runID)
        try json.key(K.Run.status)
        try json.string(run.status.rawValue)
        try json.key(K.Run.toolVersion)
        try json.string(run.toolVersion)
        try json.endObject()
    }
}
