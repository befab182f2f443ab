import StocktakeModel
import StocktakePolicy

/// One audit of one app in the history: the figures the nightly index and `stocktake history` show, kept
/// after the run's report folder has been pruned.
package struct HistoryRun: Sendable, Equatable {
    /// How the run ended.
    package enum Status: String, Sendable, CaseIterable {
        /// The audit exited 0.
        case clean
        /// The audit exited 2: a finding at or above `--fail-on`, or a budget exceeded. Its reports exist.
        case policyFailure
    }

    package let bundleIdentifier: String
    /// Where the app's runs come from, named by whoever records them (`--source`): a device, a simulator, a pipeline
    /// lane. An app's runs from one source make one trend; the same run id may exist once per source.
    package let source: String
    /// The run's folder name under `Reports/<bundle id>/`, a UTC timestamp such as `2026-11-21T020000Z`.
    /// Runs sort by it.
    package let runID: String
    /// The report's `generatedAt` as written (ISO 8601, UTC).
    package let generatedAt: String
    package let toolVersion: String
    package let appVersion: String?
    package let onDisk: SizeTotal
    package let documentsAndData: SizeTotal
    package let purgeable: SizeTotal
    /// Every location, zero where the run had nothing.
    package let byLocation: [Location: SizeTotal]
    /// Allocated bytes of app data in the `included` backup state.
    package let backedUpBytes: Int64
    /// Allocated bytes of `excluded` plus `excludedBySystem`.
    package let excludedBytes: Int64
    /// Allocated bytes of `unknown`: backed-up locations with no evidence either way.
    package let unknownBackupBytes: Int64
    /// Every severity, zero where there was none.
    package let findingsBySeverity: [Severity: Int]
    /// Findings per rule and severity, one entry each, sorted by rule then severity. Empty for runs
    /// recorded before the store kept them (schema version 1).
    package let findings: [FindingCount]
    package let status: Status
    /// The machine that recorded the run (its host name), when known: the shared index says where a run came from.
    package let recordedBy: String?
    /// Where the run's report folder is: an absolute path on `recordedBy`, or an `http(s)` address. Nil when unknown
    /// (runs recorded before the store kept it).
    package let reportLocation: String?
    /// How long the audit took, when measured (the nightly job measures it; `record` is told it).
    package let durationSeconds: Double?

    package init(
        bundleIdentifier: String, runID: String, generatedAt: String, toolVersion: String, appVersion: String?,
        onDisk: SizeTotal, documentsAndData: SizeTotal, purgeable: SizeTotal, byLocation: [Location: SizeTotal],
        backedUpBytes: Int64, excludedBytes: Int64, unknownBackupBytes: Int64,
        findingsBySeverity: [Severity: Int], findings: [FindingCount], status: Status,
        source: String = RunSeries.defaultSource, recordedBy: String? = nil, reportLocation: String? = nil,
        durationSeconds: Double? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.source = source
        self.recordedBy = recordedBy
        self.reportLocation = reportLocation
        self.durationSeconds = durationSeconds
        self.runID = runID
        self.generatedAt = generatedAt
        self.toolVersion = toolVersion
        self.appVersion = appVersion
        self.onDisk = onDisk
        self.documentsAndData = documentsAndData
        self.purgeable = purgeable
        self.byLocation = Dictionary(uniqueKeysWithValues: Location.allCases.map { ($0, byLocation[$0] ?? .zero) })
        self.backedUpBytes = backedUpBytes
        self.excludedBytes = excludedBytes
        self.unknownBackupBytes = unknownBackupBytes
        self.findingsBySeverity = Dictionary(
            uniqueKeysWithValues: Severity.allCases.map { ($0, findingsBySeverity[$0] ?? 0) })
        // One entry per rule and severity (the store's key), counts of repeated entries added up.
        var merged: [FindingCount] = []
        for count in findings.filter({ $0.count > 0 }).sorted() {
            if let last = merged.last, last.rule == count.rule, last.severity == count.severity {
                merged[merged.count - 1] = FindingCount(
                    rule: last.rule, severity: last.severity, count: last.count.saturatingAdd(count.count))
            } else {
                merged.append(count)
            }
        }
        self.findings = merged
        self.status = status
    }

    /// Findings per rule, whatever their severity.
    package var findingsByRule: [String: Int] {
        findings.reduce(into: [:]) { $0[$1.rule] = ($0[$1.rule] ?? 0).saturatingAdd($1.count) }
    }

    package var findingCount: Int { findingsBySeverity.values.saturatingSum() }

    package var series: RunSeries { RunSeries(bundleIdentifier: bundleIdentifier, source: source) }
}

/// How many findings one rule raised at one severity in a run. (A rule's severity can differ between
/// runs, or between findings, when the configuration changes it.)
package struct FindingCount: Sendable, Hashable, Comparable {
    package let rule: String
    package let severity: Severity
    package let count: Int

    package static func < (lhs: FindingCount, rhs: FindingCount) -> Bool {
        (lhs.rule, lhs.severity) < (rhs.rule, rhs.severity)
    }
}
