import StocktakeModel
import StocktakePolicy
import StocktakeSQLite

extension HistoryStore {
    /// In one transaction, replacing the run of the same app, source and run id and everything that hangs off it.
    package func record(_ run: HistoryRun) throws(HistoryError) {
        try guarded("written") {
            try connection.transaction(writing: true) {
                try connection.execute(
                    "DELETE FROM runs WHERE bundle_identifier = ? AND source = ? AND run_id = ?",
                    [.text(run.bundleIdentifier), .text(run.source), .text(run.runID)])
                let placeholders = Array(repeating: "?", count: RunRow.columns.count).joined(separator: ", ")
                try connection.execute(
                    "INSERT INTO runs (\(RunRow.columns.joined(separator: ", "))) VALUES (\(placeholders))",
                    RunRow.values(run).map(\.sqlite))
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

    package func runs(of series: RunSeries, limit: Int) throws(HistoryError) -> [HistoryRun] {
        guard limit > 0 else { return [] }
        return try guarded("read") {
            try connection.transaction(writing: false) {
                let rows = try connection.rows(
                    "SELECT id, \(RunRow.columns.joined(separator: ", ")) FROM runs "
                        + "WHERE bundle_identifier = ? AND source = ? ORDER BY run_id DESC LIMIT ?",
                    [.text(series.bundleIdentifier), .text(series.source), .int(limit)]
                ) { statement in
                    let fields = try RunRow.Fields(
                        from: 1, text: { statement.text(Int32($0)) }, integer: { statement.int64(Int32($0)) },
                        real: { statement.double(Int32($0)) })
                    return (id: statement.int64(0), fields: fields)
                }
                return try rows.reversed().map { row in try run(id: row.id, fields: row.fields) }
            }
        }
    }

    package func runIDs(of series: RunSeries) throws(HistoryError) -> [String] {
        try guarded("read") {
            try connection.rows(
                "SELECT run_id FROM runs WHERE bundle_identifier = ? AND source = ? ORDER BY run_id",
                [.text(series.bundleIdentifier), .text(series.source)]
            ) { $0.text(0) ?? "" }
        }
    }

    package func series() throws(HistoryError) -> [RunSeries] {
        try guarded("read") {
            try connection.rows("SELECT DISTINCT bundle_identifier, source FROM runs") {
                RunSeries(bundleIdentifier: $0.text(0) ?? "", source: $0.text(1) ?? "")
            }.sorted()
        }
    }

    private func run(id: Int64, fields: RunRow.Fields) throws -> HistoryRun {
        let locations = try connection.rows(
            "SELECT location, files, apparent_bytes, allocated_bytes FROM run_locations WHERE run = ?", [.integer(id)]
        ) {
            (
                name: $0.text(0) ?? "",
                total: SizeTotal(files: $0.int(1), apparentBytes: $0.int64(2), allocatedBytes: $0.int64(3))
            )
        }
        let findings = try connection.rows(
            "SELECT rule, severity, count FROM run_findings WHERE run = ?", [.integer(id)]
        ) { (rule: $0.text(0) ?? "", severity: $0.text(1) ?? "", count: $0.int(2)) }
        return try fields.run(store: path, locations: locations, findings: findings)
    }
}

extension RunRow.Value {
    var sqlite: SQLiteValue {
        switch self {
        case .text(let text): .optionalText(text)
        case .integer(let number): .integer(number)
        case .real(let number): number.map { .real($0) } ?? .null
        }
    }
}
