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
    /// `coverage`, when the draft has none: a content pass still running, its coverage written in its place once known.
    public func write(
        _ draft: ReportDraft, coverage: (isReady: () -> Bool, value: () -> ContentCoverage)? = nil,
        judgedBy judge: () throws -> Judgement, to sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        try write(
            draft, baseline: nil, coverage: coverage,
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
        _ draft: ReportDraft, baseline: BaselineSummary?,
        coverage later: (isReady: () -> Bool, value: () -> ContentCoverage)? = nil,
        judgedBy judge: () throws -> Judgement, to sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        let json = JSONStream(sink: sink)
        let inventory = draft.inventory
        try json.object {
            if let bundle = draft.appBundle {
                try json.object(K.Document.appBundle) {
                    try json.field(K.AppBundle.bundleIdentifier, bundle.bundleIdentifier)
                    try json.field(K.AppBundle.fileSharingEnabled, bundle.fileSharingEnabled)
                    try json.field(K.AppBundle.infoPlist) {
                        if let info = bundle.infoPlist {
                            try PropertyListJSON.write(info, json)
                        } else {
                            try json.null()
                        }
                    }
                    try json.field(K.AppBundle.opensDocumentsInPlace, bundle.opensDocumentsInPlace)
                    try json.field(K.AppBundle.path, bundle.path)
                    try json.field(K.AppBundle.size, bundle.size)
                }
            }
            if !draft.appGroups.isEmpty {
                try json.array(K.Document.appGroups) {
                    for group in draft.appGroups {
                        try json.object(compact: true) {
                            try json.field(K.AppGroup.identifier, group.identifier)
                            try json.field(K.AppGroup.matchedBy, ifPresent: group.matchedBy)
                            try json.field(K.AppGroup.path, group.path)
                            try json.field(K.AppGroup.size, group.size)
                        }
                    }
                }
            }
            if let baseline {
                try json.object(K.Document.baseline) {
                    try json.array(K.Baseline.stale) {
                        for entry in baseline.stale {
                            try json.object(compact: true) {
                                try json.field(K.StaleEntry.fingerprint, entry.fingerprint)
                                try json.field(K.StaleEntry.path, entry.path)
                                try json.field(K.StaleEntry.rule, entry.rule)
                            }
                        }
                    }
                    try json.field(K.Baseline.suppressed, baseline.suppressed)
                }
            }
            try json.array(K.Document.budgets) {
                for budget in draft.budgets {
                    try json.object(compact: true) {
                        try json.field(K.Budget.actual, budget.actual)
                        try json.field(K.Budget.exceeded, budget.exceeded)
                        try json.field(K.Budget.limit, budget.limit)
                        try json.field(K.Budget.scope, budget.scope)
                        try json.field(K.Budget.unit, budget.isCount ? "files" : "allocatedBytes")
                    }
                }
            }
            try json.field(K.Document.container) { try writeContainer(draft.container, json) }
            if let coverage = draft.contentCoverage {
                try json.field(K.Document.contentCoverage) { try json.contentCoverage(coverage) }
            } else if let later {
                try json.field(K.Document.contentCoverage, later: later.isReady) {
                    try $0.contentCoverage(later.value())
                }
            }
            if let backup = draft.deviceBackup {
                try json.object(K.Document.deviceBackup) {
                    try json.field(K.DeviceBackup.allocatedBytesEstimated, backup.allocatedBytesEstimated)
                    try json.field(K.DeviceBackup.app) { try json.backupDomain(backup.app) }
                    try json.array(K.DeviceBackup.companions) {
                        for companion in backup.companions { try json.backupDomain(companion) }
                    }
                    let date = backup.date.map { Date(timeIntervalSince1970: TimeInterval($0)) }
                    try json.field(K.DeviceBackup.date, ifPresent: date.map(ReportDates.iso8601))
                    try json.field(K.DeviceBackup.notInExport, ifPresent: backup.notInExport)
                    try json.field(K.DeviceBackup.path, backup.path)
                    try json.field(K.DeviceBackup.productVersion, ifPresent: backup.productVersion)
                    try json.field(K.DeviceBackup.role, backup.role.rawValue)
                }
            }
            // Both row lists in one pass over the path order: a million entries are not read twice.
            var rows: (directories: [Int32], files: [Int32]) = ([], [])
            rows.files.reserveCapacity(inventory.entries.count)
            inventory.forEachEntryInPathOrder { index, entry in
                if entry.isDirectory {
                    rows.directories.append(index)
                } else {
                    rows.files.append(index)
                }
            }
            try json.field(K.Document.directories) { try writeEntries(rows.directories, of: inventory, json) }
            let evidence = inventory.evidence
            try json.object(K.Document.evidence) {
                try json.field(K.Evidence.appleDoubleSidecars, evidence.appleDoubleSidecars)
                try json.field(K.Evidence.carriesAttributes, evidence.carriesAttributes)
                try json.field(K.Evidence.declaredByUser, evidence.declaredByUser)
                try json.field(K.Evidence.deviceBackup, evidence.decidedByDeviceBackup)
                try json.field(K.Evidence.entriesWithAttributes, evidence.entriesWithAttributes)
                try json.field(K.Evidence.flaggedByAppleDouble, evidence.flaggedByAppleDouble)
                try json.field(K.Evidence.flaggedByLegacyXattr, evidence.flaggedByLegacyXattr)
                try json.field(K.Evidence.flaggedByXattr, evidence.flaggedByXattr)
                try json.field(K.Evidence.summary, evidence.summary)
            }
            try json.field(K.Document.files) { try writeEntries(rows.files, of: inventory, json) }
            let report = Report(draft, try judge())
            try json.array(K.Document.findings) {
                for finding in report.findings { try json.finding(.init(finding), fix: finding.fix) }
            }
            try json.field(K.Document.generatedAt, ReportDates.iso8601(report.generatedAt))
            try json.field(K.Document.groups) { try writeGroups(report.groups, json) }
            try json.array(K.Document.issues) {
                for issue in report.issues {
                    try json.object(compact: true) {
                        try json.field(K.Issue.detail, issue.detail)
                        // `path` as text; when the name is not UTF-8, `path` shows U+FFFD and `rawPath` keeps the bytes.
                        if PathText.isValidUTF8(issue.path) {
                            try json.field(K.Issue.path) { try json.string(utf8: issue.path) }
                        } else {
                            try json.field(K.Issue.path, PathText.display(issue.path))
                            try json.field(K.Issue.rawPath, Base64.encode(issue.path))
                        }
                        try json.field(K.Issue.reason, issue.reason.rawValue)
                    }
                }
            }
            try json.object(K.Document.kinds) {
                for (kind, total) in report.kinds.sorted(by: { $0.kind.name < $1.kind.name }) {
                    try json.field(kind.name, total)
                }
            }
            try json.field(K.Document.schemaVersion, Report.schemaVersion)
            try json.object(K.Document.tool, compact: true) {
                try json.field(K.Tool.name, report.tool.name)
                try json.field(K.Tool.version, report.tool.version)
            }
            try json.field(K.Document.totals) { try writeTotals(report, json) }
        }
        try json.finish()
    }

    private func writeContainer(_ container: ContainerDescription, _ json: JSONStream) throws {
        try json.object {
            // Present only when true: sizes of an archive (or a device backup) are estimated, not measured on disk.
            if container.allocatedBytesEstimated { try json.field(K.Container.allocatedBytesEstimated, true) }
            if let archive = container.archive {
                try json.object(K.Container.archive) {
                    try json.field(K.Archive.compression, archive.compression)
                    try json.field(K.Archive.folder, archive.folder)
                    try json.field(K.Archive.format, archive.format)
                    try json.field(K.Archive.path, archive.path)
                }
            }
            try json.field(K.Container.bundleIdentifier, container.bundleIdentifier)
            if !container.identityCandidates.isEmpty {
                try json.field(K.Container.bundleIdentifierCandidates, container.identityCandidates)
            }
            if !container.identityClues.isEmpty {
                try json.array(K.Container.bundleIdentifierClues) {
                    for clue in container.identityClues {
                        try json.object {
                            try json.field(K.IdentityClue.agrees, clue.identifier == container.bundleIdentifier)
                            try json.field(K.IdentityClue.identifier, clue.identifier)
                            try json.field(K.IdentityClue.path, clue.path)
                            try json.field(K.IdentityClue.source, clue.source.rawValue)
                        }
                    }
                }
            }
            try json.field(K.Container.bundleIdentifierSource, container.bundleIdentifierSource.rawValue)
            if let device = container.device {
                try json.object(K.Container.device) {
                    try json.field(K.Device.copiedWith, device.copiedWith)
                    try json.field(K.Device.identifier, device.identifier)
                    try json.field(K.Device.model, device.model)
                    try json.field(K.Device.name, device.name)
                    try json.field(K.Device.osVersion, device.osVersion)
                    try json.field(K.Device.udid, device.udid)
                }
            }
            if let exportedAt = container.exportedAt {
                try json.field(K.Container.exportedAt, ReportDates.exportTime(exportedAt))
                try json.field(K.Container.exportedAtSource, exportedAt.source.rawValue)
            }
            try json.field(K.Container.layout, container.layout.rawValue)
            try json.object(K.Container.metadata) {
                for document in container.metadata.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) })
                {
                    try json.object(document.path) {
                        try json.field(K.MetadataDocument.problem, ifPresent: document.problem)
                        if let value = document.value {
                            try json.field(K.MetadataDocument.value) { try PropertyListJSON.write(value, json) }
                        }
                    }
                }
            }
            try json.field(K.Container.path, container.inputPath)
            try json.field(K.Container.root, container.rootPath)
        }
    }

    private func writeEntries(_ rows: [Int32], of inventory: Inventory, _ json: JSONStream) throws {
        try json.array {
            try EntryRows(inventory: inventory, rows: rows, separator: json.elementSeparator).write {
                try json.preformattedElements($0)
            }
        }
    }

    private func writeGroups(_ groups: [GroupResult], _ json: JSONStream) throws {
        try json.object {
            for group in groups.sorted(by: {
                $0.definition.name.utf8.lexicographicallyPrecedes($1.definition.name.utf8)
            }) {
                try json.object(group.definition.name) {
                    try json.array(K.Group.members) {
                        for member in group.members {
                            try json.object(compact: true) {
                                try json.field(K.GroupMember.allocatedBytes, member.total.allocatedBytes)
                                try json.field(K.GroupMember.apparentBytes, member.total.apparentBytes)
                                try json.field(K.GroupMember.files, member.total.files)
                                try json.field(K.GroupMember.id, member.id)
                                try json.field(K.GroupMember.path, PathText.display(member.path))
                            }
                        }
                    }
                    try json.field(K.Group.pattern, group.definition.pattern)
                }
            }
        }
    }

    private func writeTotals(_ report: Report, _ json: JSONStream) throws {
        let totals = report.inventory.totals
        try json.object {
            try json.field(K.Totals.appData, totals.appData)
            if let appSize = report.appSize {
                try json.object(K.Totals.appSize, compact: true) {
                    try json.field(K.AppSize.appGroupBytes, appSize.appGroupBytes)
                    try json.field(K.AppSize.bundleBytes, appSize.bundleBytes)
                    try json.field(K.AppSize.containerWithoutCachesBytes, appSize.containerWithoutCachesBytes)
                    try json.field(K.AppSize.totalBytes, appSize.totalBytes)
                }
            }
            try json.field(K.Totals.backup) {
                try json.object(everyCaseOf: BackupState.self) { try json.total(totals.backup[$0] ?? .zero) }
            }
            try json.field(K.Totals.byLocation) {
                try json.object(everyCaseOf: Location.self) { try json.total(totals.byLocation[$0] ?? .zero) }
            }
            try json.field(K.Totals.directories, totals.directories)
            try json.field(K.Totals.documentsAndData, totals.documentsAndData)
            try json.field(K.Totals.onDisk, totals.onDisk)
            try json.field(K.Totals.purgeable, totals.purgeable)
            try json.field(K.Totals.transportArtefacts, totals.transportArtefacts)
        }
    }
}
