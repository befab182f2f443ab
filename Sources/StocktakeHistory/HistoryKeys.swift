import StocktakeRendering

/// The keys of `stocktake history --format json`, one enum per object; what report.json also names is spelled as there.
package enum HistoryKeys {
    package enum Document: String, CaseIterable, Sendable, JSONKey {
        case bundleIdentifier, runs, source
    }

    package enum Run: String, CaseIterable, Sendable, JSONKey {
        case appVersion, backup, findings, runID, status, toolVersion
        case byLocation, documentsAndData, onDisk, purgeable
        case generatedAt
    }

    /// A run's bytes by backup state (report.json keeps them by state id in `totals.backup`).
    package enum Backup: String, CaseIterable, Sendable, JSONKey {
        case excludedBytes, includedBytes, unknownBytes
    }

    package enum Findings: String, CaseIterable, Sendable, JSONKey {
        case byRule, bySeverity
    }
}
