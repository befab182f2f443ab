import StocktakeModel
import StocktakePolicy
import StocktakeReport

extension HistoryRun {
    /// The run from its `report.json` read back; the app and run id are the caller's, since a report may not know its
    /// bundle id. Versions are kept as shown text: an app's plist may hold what no store keeps.
    package init(
        bundleIdentifier: String, runID: String, snapshot: ReportSnapshot, status: Status,
        source: String = RunSeries.defaultSource, recordedBy: String? = nil, reportLocation: String? = nil,
        durationSeconds: Double? = nil
    ) {
        let totals = snapshot.totals
        let backup = { (state: BackupState) in totals.backup[state]?.allocatedBytes ?? 0 }
        self.init(
            bundleIdentifier: bundleIdentifier, runID: runID, generatedAt: snapshot.provenance.generatedAt,
            toolVersion: RecordedValues.displayText(snapshot.provenance.toolVersion),
            appVersion: snapshot.provenance.appVersion.map { RecordedValues.displayText($0) },
            onDisk: totals.onDisk, documentsAndData: totals.documentsAndData, purgeable: totals.purgeable,
            byLocation: totals.byLocation, backedUpBytes: backup(.included),
            excludedBytes: backup(.excluded).saturatingAdd(backup(.excludedBySystem)),
            unknownBackupBytes: backup(.unknown),
            findingsBySeverity: Dictionary(grouping: snapshot.findings, by: \.severity).mapValues(\.count),
            // One per finding: the run adds up those of one rule and severity.
            findings: snapshot.findings.map { FindingCount(rule: $0.rule, severity: $0.severity, count: 1) },
            status: status, source: source, recordedBy: recordedBy, reportLocation: reportLocation,
            durationSeconds: durationSeconds)
    }
}
