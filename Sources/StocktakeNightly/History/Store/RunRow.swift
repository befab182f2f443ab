import StocktakeModel
import StocktakePolicy
import StocktakeSQLite

/// How a `HistoryRun` maps to a row of `runs`: the columns in one order, for writing and reading alike.
enum RunRow {
    static let columns = [
        "bundle_identifier", "run_id", "generated_at", "tool_version", "app_version", "status",
        "on_disk_files", "on_disk_apparent_bytes", "on_disk_allocated_bytes",
        "documents_and_data_files", "documents_and_data_apparent_bytes", "documents_and_data_allocated_bytes",
        "purgeable_files", "purgeable_apparent_bytes", "purgeable_allocated_bytes",
        "backed_up_bytes", "excluded_bytes", "unknown_backup_bytes",
        "error_findings", "warning_findings", "note_findings",
    ]

    /// The severities in the order of their columns above.
    static let severityColumns: [Severity] = [.error, .warning, .note]

    static func values(_ run: HistoryRun) -> [SQLiteValue] {
        var values: [SQLiteValue] = [
            .text(run.bundleIdentifier), .text(run.runID), .text(run.generatedAt), .text(run.toolVersion),
            .optionalText(run.appVersion), .text(run.status.rawValue),
        ]
        for total in [run.onDisk, run.documentsAndData, run.purgeable] {
            values += [.int(total.files), .integer(total.apparentBytes), .integer(total.allocatedBytes)]
        }
        values += [.integer(run.backedUpBytes), .integer(run.excludedBytes), .integer(run.unknownBackupBytes)]
        values += severityColumns.map { .int(run.findingsBySeverity[$0] ?? 0) }
        return values
    }

    /// The columns of one `runs` row, read from `first` on, before the location and finding rows join them.
    struct Fields {
        let bundleIdentifier, runID, generatedAt, toolVersion: String
        let appVersion: String?
        let status: String
        let onDisk, documentsAndData, purgeable: SizeTotal
        let backedUpBytes, excludedBytes, unknownBackupBytes: Int64
        let findingsBySeverity: [Severity: Int]

        init(_ statement: SQLiteStatement, from first: Int32) {
            var column = first
            func next() -> Int32 {
                defer { column += 1 }
                return column
            }
            func text() -> String { statement.text(next()) ?? "" }
            func total() -> SizeTotal {
                SizeTotal(
                    files: statement.int(next()), apparentBytes: statement.int64(next()),
                    allocatedBytes: statement.int64(next()))
            }
            bundleIdentifier = text()
            runID = text()
            generatedAt = text()
            toolVersion = text()
            appVersion = statement.text(next())
            status = text()
            onDisk = total()
            documentsAndData = total()
            purgeable = total()
            backedUpBytes = statement.int64(next())
            excludedBytes = statement.int64(next())
            unknownBackupBytes = statement.int64(next())
            var counts: [Severity: Int] = [:]
            for severity in RunRow.severityColumns { counts[severity] = statement.int(next()) }
            findingsBySeverity = counts
        }
    }
}
