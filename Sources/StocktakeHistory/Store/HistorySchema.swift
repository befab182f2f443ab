/// The history's schema. SQLite's is an ordered list of migrations (`PRAGMA user_version` counts those run): append
/// one, never edit one that shipped. PostgreSQL arrived with version 3: its schema is one baseline of the same tables.
package enum HistorySchema {
    package struct Migration: Sendable {
        package let version: Int
        let sqlite: [String]
    }

    /// In the order they are created; a run's other rows hang off `runs`.
    package static let tables = ["runs", "run_locations", "run_findings"]

    package static let migrations: [Migration] = [
        // One row per run. Totals are columns: every run has exactly these.
        Migration(
            version: 1,
            sqlite: [
                """
                CREATE TABLE runs (
                \(version1Runs),
                    UNIQUE (bundle_identifier, run_id)
                )
                """,
                """
                CREATE TABLE run_locations (
                    run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                    location TEXT NOT NULL,
                    files INTEGER NOT NULL,
                    apparent_bytes INTEGER NOT NULL,
                    allocated_bytes INTEGER NOT NULL,
                    PRIMARY KEY (run, location)
                ) WITHOUT ROWID
                """,
            ]),
        // Findings per rule, so a trend can say which rule came or went, not only how many findings.
        Migration(
            version: 2,
            sqlite: [
                """
                CREATE TABLE run_findings (
                    run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                    rule TEXT NOT NULL,
                    severity TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (run, rule, severity)
                ) WITHOUT ROWID
                """
            ]),
        // Many machines, one history: a run is unique by app, source and run id. SQLite cannot change a table's
        // constraints, so it copies the table (foreign keys off, so dropping the old one does not cascade).
        Migration(
            version: 3,
            sqlite: [
                """
                CREATE TABLE runs_v3 (
                \(version1Runs),
                    source TEXT NOT NULL DEFAULT 'default',
                    recorded_by TEXT,
                    report_location TEXT,
                    duration_seconds REAL,
                    UNIQUE (bundle_identifier, source, run_id)
                )
                """,
                "INSERT INTO runs_v3 (\(version1Columns)) SELECT \(version1Columns) FROM runs",
                "DROP TABLE runs",
                "ALTER TABLE runs_v3 RENAME TO runs",
            ]),
    ]

    package static var currentVersion: Int { migrations.last?.version ?? 0 }

    /// PostgreSQL's schema: version 3, made at once. The constraint's name is the one every PostgreSQL store has.
    package static let postgresqlBaseline = [
        """
        CREATE TABLE runs (
        \(version1RunsPostgreSQL),
            source TEXT NOT NULL DEFAULT 'default', recorded_by TEXT, report_location TEXT,
            duration_seconds DOUBLE PRECISION,
            CONSTRAINT runs_series_run_key UNIQUE (bundle_identifier, source, run_id)
        )
        """,
        """
        CREATE TABLE run_locations (
            run BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, location TEXT NOT NULL,
            files BIGINT NOT NULL, apparent_bytes BIGINT NOT NULL, allocated_bytes BIGINT NOT NULL,
            PRIMARY KEY (run, location)
        )
        """,
        """
        CREATE TABLE run_findings (
            run BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, rule TEXT NOT NULL, severity TEXT NOT NULL,
            count BIGINT NOT NULL, PRIMARY KEY (run, rule, severity)
        )
        """,
    ]

    /// The columns of `runs` as version 1 made them, which version 3 copies (spelled out: a shipped migration must
    /// not change when the code's column list does).
    private static let version1Runs = """
        id INTEGER PRIMARY KEY, bundle_identifier TEXT NOT NULL, run_id TEXT NOT NULL, generated_at TEXT NOT NULL,
        tool_version TEXT NOT NULL, app_version TEXT, status TEXT NOT NULL,
        on_disk_files INTEGER NOT NULL, on_disk_apparent_bytes INTEGER NOT NULL, on_disk_allocated_bytes INTEGER NOT NULL,
        documents_and_data_files INTEGER NOT NULL, documents_and_data_apparent_bytes INTEGER NOT NULL,
        documents_and_data_allocated_bytes INTEGER NOT NULL,
        purgeable_files INTEGER NOT NULL, purgeable_apparent_bytes INTEGER NOT NULL,
        purgeable_allocated_bytes INTEGER NOT NULL,
        backed_up_bytes INTEGER NOT NULL, excluded_bytes INTEGER NOT NULL, unknown_backup_bytes INTEGER NOT NULL,
        error_findings INTEGER NOT NULL, warning_findings INTEGER NOT NULL, note_findings INTEGER NOT NULL
        """
    /// The same columns in PostgreSQL's types: `id` a 64-bit identity, every integer a BIGINT.
    private static let version1RunsPostgreSQL =
        version1Runs
        .replacing("id INTEGER PRIMARY KEY", with: "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
        .replacing("INTEGER", with: "BIGINT")
    private static let version1Columns = version1Runs.split(separator: ",")
        .compactMap { $0.split(whereSeparator: \.isWhitespace).first }.joined(separator: ", ")
}
