import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// Writes `report.json` (schema version 1, see Reports/report.schema.json): sorted keys, integer bytes,
/// paths relative to the container root. Streams: files are written in path order straight from the inventory.
public struct JSONReportWriter: Sendable {
    private typealias K = ReportKeys

    public init() {}

    public func write(_ report: Report, to sink: @escaping ([UInt8]) throws -> Void) throws {
        try write(report.draft, baseline: report.baseline, judgedBy: { report.judgement }, to: sink)
    }

    /// Writes `draft` up to its rows, then asks `judge` for the rest: the audit runs its rules while the rows
    /// are written (their keys sort after `files`). A baseline's key sorts before the rows, so a judgement
    /// that applied one cannot come this late: it throws `LateBaseline` (write the whole report instead).
    public func write(
        _ draft: ReportDraft, judgedBy judge: () throws -> Judgement, to sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        try write(
            draft, baseline: nil,
            judgedBy: { () throws -> Judgement in
                let judgement = try judge()
                if judgement.baseline != nil { throw LateBaseline() }
                return judgement
            }, to: sink)
    }

    /// A judgement with a baseline given after the rows were written.
    public struct LateBaseline: Error, CustomStringConvertible {
        public var description: String {
            "report.json: a baseline's summary comes before the rows; it cannot follow them"
        }
    }

    private func write(
        _ draft: ReportDraft, baseline: BaselineSummary?, judgedBy judge: () throws -> Judgement,
        to sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        let json = JSONStream(sink: sink)
        let inventory = draft.inventory
        try json.beginObject()
        if let bundle = draft.appBundle {
            try json.key(K.Document.appBundle)
            try writeAppBundle(bundle, json)
        }
        if !draft.appGroups.isEmpty {
            try json.key(K.Document.appGroups)
            try json.beginArray()
            for group in draft.appGroups {
                try json.beginObject(compact: true)
                try json.key(K.AppGroup.identifier)
                try optional(group.identifier, json)
                if let rule = group.matchedBy {
                    try json.key(K.AppGroup.matchedBy)
                    try json.string(rule)
                }
                try json.key(K.AppGroup.path)
                try json.string(group.path)
                try json.key(K.AppGroup.size)
                try json.total(group.size)
                try json.endObject()
            }
            try json.endArray()
        }
        if let baseline {
            try json.key(K.Document.baseline)
            try json.beginObject()
            try json.key(K.Baseline.stale)
            try json.beginArray()
            for entry in baseline.stale {
                try json.beginObject(compact: true)
                try json.key(K.StaleEntry.fingerprint)
                try json.string(entry.fingerprint)
                try json.key(K.StaleEntry.path)
                try json.string(entry.path)
                try json.key(K.StaleEntry.rule)
                try json.string(entry.rule)
                try json.endObject()
            }
            try json.endArray()
            try json.key(K.Baseline.suppressed)
            try json.int(baseline.suppressed)
            try json.endObject()
        }
        try json.key(K.Document.budgets)
        try writeBudgets(draft.budgets, json)
        try json.key(K.Document.container)
        try writeContainer(draft.container, json)
        if let coverage = draft.contentCoverage {
            try json.key(K.Document.contentCoverage)
            try json.contentCoverage(coverage)
        }
        if let backup = draft.deviceBackup {
            try json.key(K.Document.deviceBackup)
            try writeDeviceBackup(backup, json)
        }
        try json.key(K.Document.directories)
        try writeEntries(of: inventory, directories: true, json)
        try json.key(K.Document.evidence)
        try writeEvidence(inventory.evidence, json)
        try json.key(K.Document.files)
        try writeEntries(of: inventory, directories: false, json)
        let report = Report(draft, try judge())
        try json.key(K.Document.findings)
        try writeFindings(report.findings, json)
        try json.key(K.Document.generatedAt)
        try json.string(ReportDates.iso8601(report.generatedAt))
        try json.key(K.Document.groups)
        try writeGroups(report.groups, json)
        try json.key(K.Document.issues)
        try writeIssues(report.issues, json)
        try json.key(K.Document.kinds)
        try writeKinds(report, json)
        try json.key(K.Document.schemaVersion)
        try json.int(Report.schemaVersion)
        try json.key(K.Document.tool)
        try json.beginObject(compact: true)
        try json.key(K.Tool.name)
        try json.string(report.tool.name)
        try json.key(K.Tool.version)
        try json.string(report.tool.version)
        try json.endObject()
        try json.key(K.Document.totals)
        try writeTotals(report, json)
        try json.endObject()
        try json.finish()
    }

    /// The whole document in memory: for tests and small containers.
    public func render(_ report: Report) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try write(report) { bytes.append(contentsOf: $0) }
        return bytes
    }

    // MARK: - Sections

    private func writeContainer(_ container: ContainerDescription, _ json: JSONStream) throws {
        try json.beginObject()
        // Present only when true: sizes of an archive (or a device backup) are estimated, not measured on disk.
        if container.allocatedBytesEstimated {
            try json.key(K.Container.allocatedBytesEstimated)
            try json.bool(true)
        }
        if let archive = container.archive {
            try json.key(K.Container.archive)
            try json.beginObject()
            try json.key(K.Archive.compression)
            try json.string(archive.compression)
            try json.key(K.Archive.folder)
            try json.string(archive.folder)
            try json.key(K.Archive.format)
            try json.string(archive.format)
            try json.key(K.Archive.path)
            try json.string(archive.path)
            try json.endObject()
        }
        try json.key(K.Container.bundleIdentifier)
        try optional(container.bundleIdentifier, json)
        if !container.identityCandidates.isEmpty {
            try json.key(K.Container.bundleIdentifierCandidates)
            try json.beginArray()
            for candidate in container.identityCandidates { try json.string(candidate) }
            try json.endArray()
        }
        if !container.identityClues.isEmpty {
            try json.key(K.Container.bundleIdentifierClues)
            try json.beginArray()
            for clue in container.identityClues {
                try json.beginObject()
                try json.key(K.IdentityClue.agrees)
                try json.bool(clue.identifier == container.bundleIdentifier)
                try json.key(K.IdentityClue.identifier)
                try json.string(clue.identifier)
                try json.key(K.IdentityClue.path)
                try json.string(clue.path)
                try json.key(K.IdentityClue.source)
                try json.string(clue.source.rawValue)
                try json.endObject()
            }
            try json.endArray()
        }
        try json.key(K.Container.bundleIdentifierSource)
        try json.string(container.bundleIdentifierSource.rawValue)
        if let device = container.device {
            try json.key(K.Container.device)
            try json.beginObject()
            try json.key(K.Device.copiedWith)
            try json.string(device.copiedWith)
            try json.key(K.Device.identifier)
            try json.string(device.identifier)
            try json.key(K.Device.model)
            try optional(device.model, json)
            try json.key(K.Device.name)
            try json.string(device.name)
            try json.key(K.Device.osVersion)
            try optional(device.osVersion, json)
            try json.key(K.Device.udid)
            try optional(device.udid, json)
            try json.endObject()
        }
        if let exportedAt = container.exportedAt {
            try json.key(K.Container.exportedAt)
            try json.string(ReportDates.exportTime(exportedAt))
            try json.key(K.Container.exportedAtSource)
            try json.string(exportedAt.source.rawValue)
        }
        try json.key(K.Container.layout)
        try json.string(container.layout.rawValue)
        try json.key(K.Container.metadata)
        try json.beginObject()
        for document in container.metadata.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
            try json.key(escaping: document.path)
            try json.beginObject()
            if let problem = document.problem {
                try json.key(K.MetadataDocument.problem)
                try json.string(problem)
            }
            if let value = document.value {
                try json.key(K.MetadataDocument.value)
                try PropertyListJSON.write(value, json)
            }
            try json.endObject()
        }
        try json.endObject()
        try json.key(K.Container.path)
        try json.string(container.inputPath)
        try json.key(K.Container.root)
        try json.string(container.rootPath)
        try json.endObject()
    }

    private func writeDeviceBackup(_ backup: DeviceBackupSummary, _ json: JSONStream) throws {
        func domain(_ domain: DeviceBackupSummary.Domain) throws {
            try json.beginObject(compact: true)
            try json.key(K.BackupDomain.allocatedBytes)
            try json.int(domain.total.allocatedBytes)
            try json.key(K.BackupDomain.apparentBytes)
            try json.int(domain.total.apparentBytes)
            try json.key(K.BackupDomain.directories)
            try json.int(domain.directories)
            try json.key(K.BackupDomain.domain)
            try json.string(domain.name)
            try json.key(K.BackupDomain.files)
            try json.int(domain.total.files)
            try json.key(K.BackupDomain.identifier)
            try json.string(domain.identifier)
            try json.key(K.BackupDomain.kind)
            try json.string(domain.kind.rawValue)
            try json.key(K.BackupDomain.symlinks)
            try json.int(domain.symlinks)
            try json.endObject()
        }
        try json.beginObject()
        try json.key(K.DeviceBackup.allocatedBytesEstimated)
        try json.bool(backup.allocatedBytesEstimated)
        try json.key(K.DeviceBackup.app)
        try domain(backup.app)
        try json.key(K.DeviceBackup.companions)
        try json.beginArray()
        for companion in backup.companions { try domain(companion) }
        try json.endArray()
        if let date = backup.date {
            try json.key(K.DeviceBackup.date)
            try json.string(ReportDates.iso8601(Date(timeIntervalSince1970: TimeInterval(date))))
        }
        if let notInExport = backup.notInExport {
            try json.key(K.DeviceBackup.notInExport)
            try json.int(notInExport)
        }
        try json.key(K.DeviceBackup.path)
        try json.string(backup.path)
        if let version = backup.productVersion {
            try json.key(K.DeviceBackup.productVersion)
            try json.string(version)
        }
        try json.key(K.DeviceBackup.role)
        try json.string(backup.role.rawValue)
        try json.endObject()
    }

    private func writeEvidence(_ evidence: ExportEvidence, _ json: JSONStream) throws {
        try json.beginObject()
        try json.key(K.Evidence.appleDoubleSidecars)
        try json.int(evidence.appleDoubleSidecars)
        try json.key(K.Evidence.carriesAttributes)
        try json.bool(evidence.carriesAttributes)
        try json.key(K.Evidence.declaredByUser)
        try json.bool(evidence.declaredByUser)
        try json.key(K.Evidence.deviceBackup)
        try json.bool(evidence.decidedByDeviceBackup)
        try json.key(K.Evidence.entriesWithAttributes)
        try json.int(evidence.entriesWithAttributes)
        try json.key(K.Evidence.flaggedByAppleDouble)
        try json.int(evidence.flaggedByAppleDouble)
        try json.key(K.Evidence.flaggedByLegacyXattr)
        try json.int(evidence.flaggedByLegacyXattr)
        try json.key(K.Evidence.flaggedByXattr)
        try json.int(evidence.flaggedByXattr)
        try json.key(K.Evidence.summary)
        try json.string(evidence.summary)
        try json.endObject()
    }

    private func writeEntries(of inventory: Inventory, directories: Bool, _ json: JSONStream) throws {
        try json.beginArray()
        var rows: [Int32] = []
        inventory.forEachInPathOrder { index in
            if inventory.entries[Int(index)].isDirectory == directories { rows.append(index) }
        }
        try EntryRows(inventory: inventory, rows: rows, separator: json.elementSeparator).write {
            try json.preformattedElements($0)
        }
        try json.endArray()
    }

    private func writeBudgets(_ budgets: [BudgetResult], _ json: JSONStream) throws {
        try json.beginArray()
        for budget in budgets {
            try json.beginObject(compact: true)
            try json.key(K.Budget.actual)
            try json.int(budget.actual)
            try json.key(K.Budget.exceeded)
            try json.bool(budget.exceeded)
            try json.key(K.Budget.limit)
            try json.int(budget.limit)
            try json.key(K.Budget.scope)
            try json.string(budget.scope)
            try json.key(K.Budget.unit)
            try json.string(budget.isCount ? "files" : "allocatedBytes")
            try json.endObject()
        }
        try json.endArray()
    }

    private func writeGroups(_ groups: [GroupResult], _ json: JSONStream) throws {
        try json.beginObject()
        for group in groups.sorted(by: { $0.definition.name.utf8.lexicographicallyPrecedes($1.definition.name.utf8) }) {
            try json.key(escaping: group.definition.name)
            try json.beginObject()
            try json.key(K.Group.members)
            try json.beginArray()
            for member in group.members {
                try json.beginObject(compact: true)
                try json.key(K.GroupMember.allocatedBytes)
                try json.int(member.total.allocatedBytes)
                try json.key(K.GroupMember.apparentBytes)
                try json.int(member.total.apparentBytes)
                try json.key(K.GroupMember.files)
                try json.int(member.total.files)
                try json.key(K.GroupMember.id)
                try json.string(member.id)
                try json.key(K.GroupMember.path)
                try json.string(PathText.display(member.path))
                try json.endObject()
            }
            try json.endArray()
            try json.key(K.Group.pattern)
            try json.string(group.definition.pattern)
            try json.endObject()
        }
        try json.endObject()
    }

    private func writeFindings(_ findings: [Finding], _ json: JSONStream) throws {
        try json.beginArray()
        for finding in findings {
            try json.beginObject(compact: true)
            if let bytes = finding.bytes {
                try json.key(K.Finding.bytes)
                try json.int(bytes)
            }
            try json.key(K.Finding.fingerprint)
            try json.string(finding.fingerprint)
            try json.key(K.Finding.fix)
            try json.string(finding.fix)
            try json.key(K.Finding.message)
            try json.string(finding.message)
            try json.key(K.Finding.path)
            try json.string(finding.path)
            try json.key(K.Finding.rule)
            try json.string(finding.rule)
            try json.key(K.Finding.severity)
            try json.string(finding.severity.rawValue)
            try json.endObject()
        }
        try json.endArray()
    }

    private func writeIssues(_ issues: [ScanIssue], _ json: JSONStream) throws {
        try json.beginArray()
        for issue in issues {
            try json.beginObject(compact: true)
            try json.key(K.Issue.detail)
            try json.string(issue.detail)
            // `path` as text; when the name is not UTF-8, `path` shows U+FFFD and `rawPath` keeps the exact bytes.
            if PathText.isValidUTF8(issue.path) {
                try json.key(K.Issue.path)
                try json.string(utf8: issue.path)
            } else {
                try json.key(K.Issue.path)
                try json.string(PathText.display(issue.path))
                try json.key(K.Issue.rawPath)
                try json.string(Base64.encode(issue.path))
            }
            try json.key(K.Issue.reason)
            try json.string(issue.reason.rawValue)
            try json.endObject()
        }
        try json.endArray()
    }

    private func writeKinds(_ report: Report, _ json: JSONStream) throws {
        try json.beginObject()
        for (kind, total) in report.kinds.sorted(by: { $0.kind.name < $1.kind.name }) {
            try json.key(escaping: kind.name)
            try json.total(total)
        }
        try json.endObject()
    }

    private func writeTotals(_ report: Report, _ json: JSONStream) throws {
        let totals = report.inventory.totals
        try json.beginObject()
        try json.key(K.Totals.appData)
        try json.total(totals.appData)
        if let appSize = report.appSize {
            try json.key(K.Totals.appSize)
            try json.beginObject(compact: true)
            try json.key(K.AppSize.appGroupBytes)
            try json.int(appSize.appGroupBytes)
            try json.key(K.AppSize.bundleBytes)
            try json.int(appSize.bundleBytes)
            try json.key(K.AppSize.containerWithoutCachesBytes)
            try json.int(appSize.containerWithoutCachesBytes)
            try json.key(K.AppSize.totalBytes)
            try json.int(appSize.totalBytes)
            try json.endObject()
        }
        try json.key(K.Totals.backup)
        try json.object(everyCaseOf: BackupState.self) { try json.total(totals.backup[$0] ?? .zero) }
        try json.key(K.Totals.byLocation)
        try json.object(everyCaseOf: Location.self) { try json.total(totals.byLocation[$0] ?? .zero) }
        try json.key(K.Totals.directories)
        try json.total(totals.directories)
        try json.key(K.Totals.documentsAndData)
        try json.total(totals.documentsAndData)
        try json.key(K.Totals.onDisk)
        try json.total(totals.onDisk)
        try json.key(K.Totals.purgeable)
        try json.total(totals.purgeable)
        try json.key(K.Totals.transportArtefacts)
        try json.total(totals.transportArtefacts)
        try json.endObject()
    }

    private func writeAppBundle(_ bundle: AppBundleInfo, _ json: JSONStream) throws {
        try json.beginObject()
        try json.key(K.AppBundle.bundleIdentifier)
        try optional(bundle.bundleIdentifier, json)
        try json.key(K.AppBundle.fileSharingEnabled)
        try json.bool(bundle.fileSharingEnabled)
        try json.key(K.AppBundle.infoPlist)
        if let info = bundle.infoPlist { try PropertyListJSON.write(info, json) } else { try json.null() }
        try json.key(K.AppBundle.opensDocumentsInPlace)
        try json.bool(bundle.opensDocumentsInPlace)
        try json.key(K.AppBundle.path)
        try json.string(bundle.path)
        try json.key(K.AppBundle.size)
        try json.total(bundle.size)
        try json.endObject()
    }

    private func optional(_ value: String?, _ json: JSONStream) throws {
        if let value { try json.string(value) } else { try json.null() }
    }
}
