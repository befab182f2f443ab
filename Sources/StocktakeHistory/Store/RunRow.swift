import StocktakeModel
import StocktakePolicy

/// How a `HistoryRun` maps to a row of `runs`: one column order for writing and reading, in every store.
package enum RunRow {
    package static let columns = [
        "bundle_identifier", "run_id", "generated_at", "tool_version", "app_version", "status",
        "on_disk_files", "on_disk_apparent_bytes", "on_disk_allocated_bytes",
        "documents_and_data_files", "documents_and_data_apparent_bytes", "documents_and_data_allocated_bytes",
        "purgeable_files", "purgeable_apparent_bytes", "purgeable_allocated_bytes",
        "backed_up_bytes", "excluded_bytes", "unknown_backup_bytes",
        "error_findings", "warning_findings", "note_findings",
        "source", "recorded_by", "report_location", "duration_seconds",
    ]

    package enum Value: Sendable, Equatable {
        case text(String?)
        case integer(Int64)
        case real(Double?)
    }

    static let severityColumns: [Severity] = [.error, .warning, .note]

    package static func values(_ run: HistoryRun) -> [Value] {
        var values: [Value] = [
            .text(run.bundleIdentifier), .text(run.runID), .text(run.generatedAt), .text(run.toolVersion),
            .text(run.appVersion), .text(run.status.rawValue),
        ]
        for total in [run.onDisk, run.documentsAndData, run.purgeable] {
            values += [.integer(Int64(total.files)), .integer(total.apparentBytes), .integer(total.allocatedBytes)]
        }
        values += [.integer(run.backedUpBytes), .integer(run.excludedBytes), .integer(run.unknownBackupBytes)]
        values += severityColumns.map { .integer(Int64(run.findingsBySeverity[$0] ?? 0)) }
        values += [.text(run.source), .text(run.recordedBy), .text(run.reportLocation), .real(run.durationSeconds)]
        return values
    }

    /// The columns of one `runs` row, before the location and finding rows join them.
    package struct Fields {
        package let bundleIdentifier, runID, generatedAt, toolVersion: String
        package let appVersion: String?
        package let status: String
        package let onDisk, documentsAndData, purgeable: SizeTotal
        package let backedUpBytes, excludedBytes, unknownBackupBytes: Int64
        package let findingsBySeverity: [Severity: Int]
        package let source: String
        package let recordedBy, reportLocation: String?
        package let durationSeconds: Double?

        /// Reads `columns` from the result's column `first` on, each store through its own result type.
        package init(
            from first: Int, text: (Int) throws -> String?, integer: (Int) throws -> Int64,
            real: (Int) throws -> Double?
        ) throws {
            var column = first
            func next<T>(_ read: (Int) throws -> T) throws -> T {
                defer { column += 1 }
                return try read(column)
            }
            func total() throws -> SizeTotal {
                SizeTotal(
                    files: Int(truncatingIfNeeded: try next(integer)), apparentBytes: try next(integer),
                    allocatedBytes: try next(integer))
            }
            bundleIdentifier = try next(text) ?? ""
            runID = try next(text) ?? ""
            generatedAt = try next(text) ?? ""
            toolVersion = try next(text) ?? ""
            appVersion = try next(text)
            status = try next(text) ?? ""
            onDisk = try total()
            documentsAndData = try total()
            purgeable = try total()
            backedUpBytes = try next(integer)
            excludedBytes = try next(integer)
            unknownBackupBytes = try next(integer)
            findingsBySeverity = try Dictionary(
                uniqueKeysWithValues: RunRow.severityColumns.map { ($0, Int(truncatingIfNeeded: try next(integer))) })
            source = try next(text) ?? RunSeries.defaultSource
            recordedBy = try next(text)
            reportLocation = try next(text)
            durationSeconds = try next(real)
        }

        /// The run, once its location and finding rows are read; a row no stocktake writes is `store`'s error.
        package func run(
            store: String, locations: [(name: String, total: SizeTotal)],
            findings: [(rule: String, severity: String, count: Int)]
        ) throws(HistoryError) -> HistoryRun {
            let named = "run \(VisibleText.quoted(runID)) of \(VisibleText.quoted(bundleIdentifier))"
            func unreadable(_ detail: String) -> HistoryError {
                HistoryError(
                    store: store, kind: .failed, message: "could not be read: \(detail) (was it edited by hand?)")
            }
            guard let status = HistoryRun.Status(rawValue: status) else {
                throw unreadable("\(named) has an unknown status \(VisibleText.quoted(status))")
            }
            var byLocation: [Location: SizeTotal] = [:]
            for row in locations {
                guard let location = Location(rawValue: row.name) else {
                    throw unreadable("\(named) has an unknown location \(VisibleText.quoted(row.name))")
                }
                byLocation[location] = row.total
            }
            let counts = try findings.map { row throws(HistoryError) in
                guard let severity = Severity(rawValue: row.severity) else {
                    throw unreadable("\(named) has an unknown severity \(VisibleText.quoted(row.severity))")
                }
                return FindingCount(rule: row.rule, severity: severity, count: row.count)
            }
            let run = HistoryRun(
                bundleIdentifier: bundleIdentifier, runID: runID, generatedAt: generatedAt, toolVersion: toolVersion,
                appVersion: appVersion, onDisk: onDisk, documentsAndData: documentsAndData, purgeable: purgeable,
                byLocation: byLocation, backedUpBytes: backedUpBytes, excludedBytes: excludedBytes,
                unknownBackupBytes: unknownBackupBytes, findingsBySeverity: findingsBySeverity, findings: counts,
                status: status, source: source, recordedBy: recordedBy, reportLocation: reportLocation,
                durationSeconds: durationSeconds)
            // Re-checked as a recorded run is: the row may come from another machine, another version, or a hand.
            if let problem = run.problem { throw unreadable("\(named): \(problem)") }
            return run
        }
    }
}
