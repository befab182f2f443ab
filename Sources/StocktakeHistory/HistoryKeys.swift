import StocktakeReport

/// The keys of `stocktake history --format json`, one enum per object. Where a key names what report.json names
/// (a run's totals, its time, the app), it is report.json's own case, so the two cannot drift apart.
package enum HistoryKeys {
    package enum Document: String, CaseIterable, Sendable {
        case bundleIdentifier, runs
    }

    package enum Run: String, CaseIterable, Sendable {
        case appVersion, backup, findings, runID, status, toolVersion
        case byLocation, documentsAndData, onDisk, purgeable
        case generatedAt
    }

    /// A run's bytes by backup state (report.json keeps them by state id in `totals.backup`).
    package enum Backup: String, CaseIterable, Sendable {
        case excludedBytes, includedBytes, unknownBytes
    }

    package enum Findings: String, CaseIterable, Sendable {
        case byRule, bySeverity
    }

    /// The keys this document shares with report.json, each with the report.json key it must equal.
    package static let sharedWithReport: [(history: String, report: String)] = [
        (Document.bundleIdentifier.rawValue, ReportKeys.Container.bundleIdentifier.rawValue),
        (Run.byLocation.rawValue, ReportKeys.Totals.byLocation.rawValue),
        (Run.documentsAndData.rawValue, ReportKeys.Totals.documentsAndData.rawValue),
        (Run.onDisk.rawValue, ReportKeys.Totals.onDisk.rawValue),
        (Run.purgeable.rawValue, ReportKeys.Totals.purgeable.rawValue),
        (Run.generatedAt.rawValue, ReportKeys.Document.generatedAt.rawValue),
    ]
}
