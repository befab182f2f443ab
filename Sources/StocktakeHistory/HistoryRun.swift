import StocktakeModel
import StocktakePolicy

/// One audit of one app in the history, kept after the run's report folder has been pruned.
package struct HistoryRun: Sendable, Equatable {
    package enum Status: String, Sendable, CaseIterable {
        case clean
        /// The audit exited 2: a finding at or above `--fail-on`, or a budget exceeded. Its reports exist.
        case policyFailure
    }

    package let bundleIdentifier: String
    /// Where the app's runs come from (`--source`): one source's runs make one trend, and a run id is unique in it.
    package let source: String
    /// The run's folder name, a UTC timestamp such as `2026-11-21T020000Z`: runs sort by it.
    package let runID: String
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
    /// One entry per rule and severity, sorted; empty for runs recorded before the store kept them.
    package let findings: [FindingCount]
    package let status: Status
    /// The host that recorded the run: the shared index says where a run came from.
    package let recordedBy: String?
    /// The report folder: an absolute path on `recordedBy`, or an `http(s)` address.
    package let reportLocation: String?
    package let durationSeconds: Double?

    package init(
        bundleIdentifier: String, runID: String, generatedAt: String, toolVersion: String, appVersion: String?,
        onDisk: SizeTotal, documentsAndData: SizeTotal, purgeable: SizeTotal, byLocation: [Location: SizeTotal],
        backedUpBytes: Int64, excludedBytes: Int64, unknownBackupBytes: Int64, findingsBySeverity: [Severity: Int],
        findings: [FindingCount], status: Status, source: String = RunSeries.defaultSource, recordedBy: String? = nil,
        reportLocation: String? = nil, durationSeconds: Double? = nil
    ) {
        (self.bundleIdentifier, self.source, self.recordedBy) = (bundleIdentifier, source, recordedBy)
        (self.reportLocation, self.durationSeconds, self.runID) = (reportLocation, durationSeconds, runID)
        (self.generatedAt, self.toolVersion, self.appVersion) = (generatedAt, toolVersion, appVersion)
        (self.onDisk, self.documentsAndData, self.purgeable) = (onDisk, documentsAndData, purgeable)
        self.byLocation = Dictionary(uniqueKeysWithValues: Location.allCases.map { ($0, byLocation[$0] ?? .zero) })
        (self.backedUpBytes, self.excludedBytes) = (backedUpBytes, excludedBytes)
        self.unknownBackupBytes = unknownBackupBytes
        self.findingsBySeverity = Dictionary(
            uniqueKeysWithValues: Severity.allCases.map { ($0, findingsBySeverity[$0] ?? 0) })
        // One entry per rule and severity (the store's key), counts of repeated entries added up.
        let sums = findings.filter { $0.count > 0 }.reduce(into: [FindingCount: Int]()) { sums, count in
            let key = FindingCount(rule: count.rule, severity: count.severity, count: 0)
            sums[key] = (sums[key] ?? 0).saturatingAdd(count.count)
        }
        let merged = sums.map { FindingCount(rule: $0.key.rule, severity: $0.key.severity, count: $0.value) }
        (self.findings, self.status) = (merged.sorted(), status)
    }

    package var findingsByRule: [String: Int] {
        findings.reduce(into: [:]) { $0[$1.rule] = ($0[$1.rule] ?? 0).saturatingAdd($1.count) }
    }

    package var findingCount: Int { findingsBySeverity.values.saturatingSum() }

    package var series: RunSeries { RunSeries(bundleIdentifier: bundleIdentifier, source: source) }
}

/// How many findings one rule raised at one severity in a run (the configuration may change a rule's severity).
package struct FindingCount: Sendable, Hashable, Comparable {
    package let rule: String
    package let severity: Severity
    package let count: Int

    package static func < (lhs: FindingCount, rhs: FindingCount) -> Bool {
        (lhs.rule, lhs.severity) < (rhs.rule, rhs.severity)
    }
}
