/// The store's schema, as an ordered list of migrations. The file's `PRAGMA user_version` says how many
/// have been applied; opening a store applies the rest. To change the schema, append a migration: never
/// edit one that has shipped, since stores in the field have already run it.
enum HistorySchema {
    struct Migration {
        let version: Int
        let statements: [String]
    }

    static let migrations: [Migration] = [
        Migration(
            version: 1,
            statements: [
                // One row per run. Totals are columns: every run has exactly these.
                """
                CREATE TABLE runs (
                    id INTEGER PRIMARY KEY,
                    bundle_identifier TEXT NOT NULL,
                    run_id TEXT NOT NULL,
                    generated_at TEXT NOT NULL,
                    tool_version TEXT NOT NULL,
                    app_version TEXT,
                    status TEXT NOT NULL,
                    on_disk_files INTEGER NOT NULL,
                    on_disk_apparent_bytes INTEGER NOT NULL,
                    on_disk_allocated_bytes INTEGER NOT NULL,
                    documents_and_data_files INTEGER NOT NULL,
                    documents_and_data_apparent_bytes INTEGER NOT NULL,
                    documents_and_data_allocated_bytes INTEGER NOT NULL,
                    purgeable_files INTEGER NOT NULL,
                    purgeable_apparent_bytes INTEGER NOT NULL,
                    purgeable_allocated_bytes INTEGER NOT NULL,
                    backed_up_bytes INTEGER NOT NULL,
                    excluded_bytes INTEGER NOT NULL,
                    unknown_backup_bytes INTEGER NOT NULL,
                    error_findings INTEGER NOT NULL,
                    warning_findings INTEGER NOT NULL,
                    note_findings INTEGER NOT NULL,
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
            statements: [
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
    ]

    static var currentVersion: Int { migrations.last?.version ?? 0 }
}
