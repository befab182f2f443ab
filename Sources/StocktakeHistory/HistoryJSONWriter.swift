import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// `stocktake history --format json` (contract): `{"bundleIdentifier", "runs": [...]}`, runs oldest first,
/// sorted keys, integer bytes. Sizes are `{files, apparentBytes, allocatedBytes}` as in `report.json`.
public struct HistoryJSONWriter: Sendable {
    public init() {}

    public func write(bundleIdentifier: String, runs: [HistoryRun], to sink: @escaping ([UInt8]) throws -> Void) throws {
        let json = JSONStream(sink: sink)
        try json.beginObject()
        try json.key("bundleIdentifier"); try json.string(bundleIdentifier)
        try json.key("runs")
        try json.beginArray()
        for run in runs { try writeRun(run, json) }
        try json.endArray()
        try json.endObject()
        try json.finish()
    }

    private func writeRun(_ run: HistoryRun, _ json: JSONStream) throws {
        try json.beginObject()
        try json.key("appVersion"); try run.appVersion.map { try json.string($0) } ?? json.null()
        try json.key("backup")
        try json.beginObject(compact: true)
        try json.key("excludedBytes"); try json.int(run.excludedBytes)
        try json.key("includedBytes"); try json.int(run.backedUpBytes)
        try json.key("unknownBytes"); try json.int(run.unknownBackupBytes)
        try json.endObject()
        try json.key("byLocation")
        try json.beginObject()
        for location in Location.allCases.sorted(by: { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }) {
            try json.key(escaping: location.rawValue); try writeSize(run.byLocation[location] ?? .zero, json)
        }
        try json.endObject()
        try json.key("documentsAndData"); try writeSize(run.documentsAndData, json)
        try json.key("findings")
        try json.beginObject()
        try json.key("byRule")
        try json.beginObject()
        for (rule, count) in run.findingsByRule.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            try json.key(escaping: rule); try json.int(count)
        }
        try json.endObject()
        try json.key("bySeverity")
        try json.beginObject(compact: true)
        for severity in Severity.allCases.sorted(by: { $0.rawValue < $1.rawValue }) {
            try json.key(escaping: severity.rawValue); try json.int(run.findingsBySeverity[severity] ?? 0)
        }
        try json.endObject()
        try json.endObject()
        try json.key("generatedAt"); try json.string(run.generatedAt)
        try json.key("onDisk"); try writeSize(run.onDisk, json)
        try json.key("purgeable"); try writeSize(run.purgeable, json)
        try json.key("runID"); try json.string(run.runID)
        try json.key("status"); try json.string(run.status.rawValue)
        try json.key("toolVersion"); try json.string(run.toolVersion)
        try json.endObject()
    }

    private func writeSize(_ size: SizeTotal, _ json: JSONStream) throws {
        try json.beginObject(compact: true)
        try json.key("allocatedBytes"); try json.int(size.allocatedBytes)
        try json.key("apparentBytes"); try json.int(size.apparentBytes)
        try json.key("files"); try json.int(size.files)
        try json.endObject()
    }
}
