import StocktakeModel
import StocktakePolicy

/// What a diff (and the nightly history) needs from one `report.json`, read back from the file rather
/// than from a live scan, so that reports written by earlier runs and other machines can be compared.
/// Files and folders are held in columns (`EntryTable`): a million-file report stays compact.
public struct ReportSnapshot: Sendable {
    public fileprivate(set) var provenance: Provenance
    public let totals: Totals
    /// Every non-directory entry of `files[]`, in the report's order.
    public let files: EntryTable
    /// Every folder of `directories[]`; figures are the subtree totals (`totalApparentBytes`, …).
    public let directories: EntryTable
    /// `groups` by name, members in the report's order (largest first).
    public let groups: [String: [GroupMember]]
    public let budgets: [Budget]
    public let findings: [FindingRecord]
    /// `contentCoverage.complete`: whether every file the content checks read was read whole; nil when the report
    /// has no content coverage (the checks were off).
    public let contentCoverageComplete: Bool?

    public init(
        provenance: Provenance, totals: Totals, files: EntryTable, directories: EntryTable,
        groups: [String: [GroupMember]], budgets: [Budget], findings: [FindingRecord],
        contentCoverageComplete: Bool? = nil
    ) {
        (self.provenance, self.totals, self.files, self.directories) = (provenance, totals, files, directories)
        (self.groups, self.budgets, self.findings) = (groups, budgets, findings)
        self.contentCoverageComplete = contentCoverageComplete
    }

    /// Where a report came from: shown on both sides of a diff and recorded in the history.
    public struct Provenance: Sendable, Equatable {
        /// The path the report was read from, as given.
        public fileprivate(set) var source: String
        public let schemaVersion: Int
        public let toolName: String
        public let toolVersion: String
        /// `generatedAt` as written (ISO 8601, UTC).
        public let generatedAt: String
        public let bundleIdentifier: String?
        /// The app's version: `XCExecutableVersion` of `AppDataInfo.plist`, else the app bundle's
        /// `CFBundleShortVersionString`, else nil.
        public let appVersion: String?
        /// `container.path`: the input the audit was given.
        public let containerPath: String
        public let layout: String
        /// `container.exportedAt`: when the export was written (ISO 8601), when the report says.
        public let exportedAt: String?

        public init(
            source: String, schemaVersion: Int, toolName: String, toolVersion: String, generatedAt: String,
            bundleIdentifier: String?, appVersion: String?, containerPath: String, layout: String,
            exportedAt: String? = nil
        ) {
            (self.bundleIdentifier, self.schemaVersion, self.exportedAt) = (bundleIdentifier, schemaVersion, exportedAt)
            (self.containerPath, self.toolVersion, self.generatedAt) = (containerPath, toolVersion, generatedAt)
            (self.appVersion, self.toolName, self.source, self.layout) = (appVersion, toolName, source, layout)
        }
    }

    /// `totals` of the report (docs/reports.md, "Figures").
    public struct Totals: Sendable, Equatable {
        public let onDisk: SizeTotal
        public let byLocation: [Location: SizeTotal]
        public let documentsAndData: SizeTotal
        public let purgeable: SizeTotal
        public let backup: [BackupState: SizeTotal]

        public init(
            onDisk: SizeTotal, byLocation: [Location: SizeTotal], documentsAndData: SizeTotal, purgeable: SizeTotal,
            backup: [BackupState: SizeTotal]
        ) {
            (self.onDisk, self.byLocation, self.documentsAndData) = (onDisk, byLocation, documentsAndData)
            (self.purgeable, self.backup) = (purgeable, backup)
        }
    }

    /// One member of a `groups` entry (a chat, an account, …).
    public struct GroupMember: Sendable, Equatable {
        public let id: String
        public let path: String
        public let size: SizeTotal

        public init(id: String, path: String, size: SizeTotal) { (self.id, self.path, self.size) = (id, path, size) }
    }

    /// One entry of `budgets[]`.
    public struct Budget: Sendable, Equatable {
        public let scope: String
        /// `allocatedBytes` or `files`.
        public let unit: String
        public let limit: Int64
        public let actual: Int64
        public let exceeded: Bool

        public init(scope: String, unit: String, limit: Int64, actual: Int64, exceeded: Bool) {
            (self.scope, self.unit, self.limit, self.actual) = (scope, unit, limit, actual)
            self.exceeded = exceeded
        }
    }

    /// One entry of `findings[]`.
    public struct FindingRecord: Sendable, Equatable {
        public let rule: String
        public let severity: Severity
        public let path: String
        public let message: String
        public let fingerprint: String
        /// The bytes the finding is about, when the rule states them.
        public let bytes: Int64?

        public init(rule: String, severity: Severity, path: String, message: String, fingerprint: String, bytes: Int64?)
        {
            (self.rule, self.severity, self.path, self.message) = (rule, severity, path, message)
            (self.fingerprint, self.bytes) = (fingerprint, bytes)
        }
    }
}

extension ReportSnapshot {
    /// The same report, named by `source` rather than the path it was read from: the nightly job reads
    /// a run before it is moved into place and names it by where it will be.
    public func named(_ source: String) -> ReportSnapshot {
        var named = self
        named.provenance.source = source
        return named
    }
}
