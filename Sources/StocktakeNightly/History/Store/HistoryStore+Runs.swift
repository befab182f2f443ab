import StocktakeModel
import StocktakePolicy

extension HistoryStore {
    /// Records one run in one transaction. Recording the same app and run id again replaces the earlier
    /// row and everything that hangs off it (a re-run of the same night).
    package func record(_ run: HistoryRun) throws(HistoryError) {
        try guarded("written") {
            try connection.transaction(writing: true) {
                try connection.execute(
                    "DELETE FROM runs WHERE bundle_identifier = ? AND run_id = ?",
                    [.text(run.bundleIdentifier), .text(run.runID)])
                let placeholders = Array(repeating: "?", count: RunRow.columns.count).joined(separator: ", ")
                try connection.execute(
                    "INSERT INTO runs (\(RunRow.columns.joined(separator: ", "))) VALUES (\(placeholders))",
                    RunRow.values(run))
                let id = connection.lastInsertedRowID
                let location = try connection.prepare(
                    "INSERT INTO run_locations (run, location, files, apparent_bytes, allocated_bytes) VALUES (?, ?, ?, ?, ?)"
                )
                for place in Location.allCases {
                    let total = run.byLocation[place] ?? .zero
                    try location.bind([
                        .integer(id), .text(place.rawValue), .int(total.files), .integer(total.apparentBytes),
                        .integer(total.allocatedBytes),
                    ])
                    while try location.step() {}
                }
                let finding = try connection.prepare(
                    "INSERT INTO run_findings (run, rule, severity, count) VALUES (?, ?, ?, ?)")
                for count in run.findings {
                    try finding.bind([
                        .integer(id), .text(count.rule), .text(count.severity.rawValue), .int(count.count),
                    ])
                    while try finding.step() {}
                }
            }
        }
    }

    /// The last `limit` runs of one app, oldest first (by run id, which is the run's UTC timestamp).
    package func runs(bundleIdentifier: String, limit: Int) throws(HistoryError) -> [HistoryRun] {
        guard limit > 0 else { return [] }
        return try guarded("read") {
            try connection.transaction(writing: false) {
                let rows = try connection.rows(
                    "SELECT id, \(RunRow.columns.joined(separator: ", ")) FROM runs WHERE bundle_identifier = ? "
                        + "ORDER BY run_id DESC LIMIT ?",
                    [.text(bundleIdentifier), .int(limit)]
                ) { (id: $0.int64(0), fields: RunRow.Fields($0, from: 1)) }
                return try rows.reversed().map { row in try run(id: row.id, fields: row.fields) }
            }
        }
    }

    /// Every run id recorded for one app, oldest first (the nightly recovery compares them with the run folders).
    package func runIDs(bundleIdentifier: String) throws(HistoryError) -> [String] {
        try guarded("read") {
            try connection.rows(
                "SELECT run_id FROM runs WHERE bundle_identifier = ? ORDER BY run_id", [.text(bundleIdentifier)]
            ) { $0.text(0) ?? "" }
        }
    }

    /// Every app with at least one run, sorted.
    package func bundleIdentifiers() throws(HistoryError) -> [String] {
        try guarded("read") {
            try connection.rows("SELECT DISTINCT bundle_identifier FROM runs ORDER BY bundle_identifier") {
                $0.text(0) ?? ""
            }
        }
    }

    private func run(id: Int64, fields: RunRow.Fields) throws -> HistoryRun {
        guard let status = HistoryRun.Status(rawValue: fields.status) else {
            throw unreadable(
                "run \(fields.runID) of \(fields.bundleIdentifier) has an unknown status '\(fields.status)'")
        }
        var byLocation: [Location: SizeTotal] = [:]
        for row in try connection.rows(
            "SELECT location, files, apparent_bytes, allocated_bytes FROM run_locations WHERE run = ?", [.integer(id)],
            {
                (
                    name: $0.text(0) ?? "",
                    total: SizeTotal(files: $0.int(1), apparentBytes: $0.int64(2), allocatedBytes: $0.int64(3))
                )
            }
        ) {
            guard let location = Location(rawValue: row.name) else {
                throw unreadable(
                    "run \(fields.runID) of \(fields.bundleIdentifier) has an unknown location '\(row.name)'")
            }
            byLocation[location] = row.total
        }
        let findings = try connection.rows(
            "SELECT rule, severity, count FROM run_findings WHERE run = ?", [.integer(id)]
        ) { (rule: $0.text(0) ?? "", severity: $0.text(1) ?? "", count: $0.int(2)) }
        return HistoryRun(
            bundleIdentifier: fields.bundleIdentifier, runID: fields.runID, generatedAt: fields.generatedAt,
            toolVersion: fields.toolVersion, appVersion: fields.appVersion, onDisk: fields.onDisk,
            documentsAndData: fields.documentsAndData, purgeable: fields.purgeable, byLocation: byLocation,
            backedUpBytes: fields.backedUpBytes, excludedBytes: fields.excludedBytes,
            unknownBackupBytes: fields.unknownBackupBytes,
            findingsBySeverity: fields.findingsBySeverity,
            findings: try findings.map { row in
                guard let severity = Severity(rawValue: row.severity) else {
                    throw unreadable(
                        "run \(fields.runID) of \(fields.bundleIdentifier) has an unknown severity '\(row.severity)'")
                }
                return FindingCount(rule: row.rule, severity: severity, count: row.count)
            },
            status: status)
    }

    private func unreadable(_ detail: String) -> HistoryError {
        HistoryError(path: path, kind: .failed, message: "could not be read: \(detail) (was it edited by hand?)")
    }
}
