import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

/// `stocktake history --format json` (contract): runs oldest first, sorted keys, sizes and keys as `report.json`'s.
package struct HistoryJSONWriter: Sendable {
    private typealias K = HistoryKeys

    package init() {}

    package func write(
        bundleIdentifier: String, source: String = RunSeries.defaultSource, runs: [HistoryRun],
        to sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        let json = JSONStream(sink: sink)
        try json.object {
            try json.field(K.Document.bundleIdentifier, bundleIdentifier)
            try json.array(K.Document.runs) { for run in runs { try writeRun(run, json) } }
            try json.field(K.Document.source, source)
        }
        try json.finish()
    }

    private func writeRun(_ run: HistoryRun, _ json: JSONStream) throws {
        try json.object {
            try json.field(K.Run.appVersion, run.appVersion)
            try json.object(K.Run.backup, compact: true) {
                try json.field(K.Backup.excludedBytes, run.excludedBytes)
                try json.field(K.Backup.includedBytes, run.backedUpBytes)
                try json.field(K.Backup.unknownBytes, run.unknownBackupBytes)
            }
            try json.field(K.Run.byLocation) {
                try json.object(everyCaseOf: Location.self) { try json.total(run.byLocation[$0] ?? .zero) }
            }
            try json.field(K.Run.documentsAndData, run.documentsAndData)
            try json.object(K.Run.findings) {
                let byRule = run.findingsByRule.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                try json.object(K.Findings.byRule) { for (rule, count) in byRule { try json.field(rule, count) } }
                try json.field(K.Findings.bySeverity) {
                    try json.object(everyCaseOf: Severity.self, compact: true) {
                        try json.int(run.findingsBySeverity[$0] ?? 0)
                    }
                }
            }
            try json.field(K.Run.generatedAt, run.generatedAt)
            try json.field(K.Run.onDisk, run.onDisk)
            try json.field(K.Run.purgeable, run.purgeable)
            try json.field(K.Run.runID, run.runID)
            try json.field(K.Run.status, run.status.rawValue)
            try json.field(K.Run.toolVersion, run.toolVersion)
        }
    }
}
