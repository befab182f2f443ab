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

    /// A row read column by column in `columns`' order.
    package protocol Cursor {
        mutating func text() throws -> String?
        mutating func integer() throws -> Int64
        mutating func real() throws -> Double?
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

        package init(_ row: inout some Cursor) throws {
            func total(_ row: inout some Cursor) throws -> SizeTotal {
                SizeTotal(
                    files: Int(truncatingIfNeeded: try row.integer()), apparentBytes: try row.integer(),
                    allocatedBytes: try row.integer())
            }
            bundleIdentifier = try row.text() ?? ""
            runID = try row.text() ?? ""
            generatedAt = try row.text() ?? ""
            toolVersion = try row.text() ?? ""
            appVersion = try row.text()
            status = try row.text() ?? ""
            onDisk = try total(&row)
            documentsAndData = try total(&row)
            purgeable = try total(&row)
            backedUpBytes = try row.integer()
            excludedBytes = try row.integer()
            unknownBackupBytes = try row.integer()
            var counts: [Severity: Int] = [:]
            for severity in RunRow.severityColumns { counts[severity] = Int(truncatingIfNeeded: try row.integer()) }
            findingsBySeverity = counts
            source = try row.text() ?? RunSeries.defaultSource
            recordedBy = try row.text()
            reportLocation = try row.text()
            durationSeconds = try row.real()
        }

        /// The run, once its location and finding rows are read. Throws a phrase naming what is wrong with the row.
        package func run(
            locations: [(name: String, total: SizeTotal)], findings: [(rule: String, severity: String, count: Int)]
        )
            throws(RowProblem) -> HistoryRun
        {
            let named = "run \(VisibleText.quoted(runID)) of \(VisibleText.quoted(bundleIdentifier))"
            guard let status = HistoryRun.Status(rawValue: status) else {
                throw RowProblem("\(named) has an unknown status \(VisibleText.quoted(status))")
            }
            var byLocation: [Location: SizeTotal] = [:]
            for row in locations {
                guard let location = Location(rawValue: row.name) else {
                    throw RowProblem("\(named) has an unknown location \(VisibleText.quoted(row.name))")
                }
                byLocation[location] = row.total
            }
            var counts: [FindingCount] = []
            for row in findings {
                guard let severity = Severity(rawValue: row.severity) else {
                    throw RowProblem("\(named) has an unknown severity \(VisibleText.quoted(row.severity))")
                }
                counts.append(FindingCount(rule: row.rule, severity: severity, count: row.count))
            }
            let run = HistoryRun(
                bundleIdentifier: bundleIdentifier, runID: runID, generatedAt: generatedAt, toolVersion: toolVersion,
                appVersion: appVersion, onDisk: onDisk, documentsAndData: documentsAndData, purgeable: purgeable,
                byLocation: byLocation, backedUpBytes: backedUpBytes, excludedBytes: excludedBytes,
                unknownBackupBytes: unknownBackupBytes, findingsBySeverity: findingsBySeverity, findings: counts,
                status: status, source: source, recordedBy: recordedBy, reportLocation: reportLocation,
                durationSeconds: durationSeconds)
            // Re-checked as a recorded run is: the row may come from another machine, another version, or a hand.
            if let problem = run.problem { throw RowProblem("\(named): \(problem)") }
            return run
        }
    }

    /// What is wrong with a stored row, as a phrase ("run X of Y has an unknown status 'z'").
    package struct RowProblem: Error {
        package let detail: String
        init(_ detail: String) { self.detail = detail }
    }
}
