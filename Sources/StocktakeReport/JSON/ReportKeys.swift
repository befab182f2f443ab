import StocktakeModel
import StocktakeRendering

/// report.json's keys, one enum per kind of object: the writer, the fast row writer, the reader and the diff
/// name keys only through these, and a test holds each enum to the properties Reports/report.schema.json
/// allows for its object. Keys that come from data (plist keys, group names, location and backup-state
/// ids) are not here. A new key is a new case, a schema property and a changelog line: the contract.
public enum ReportKeys {
    /// The document's top level.
    public enum Document: String, CaseIterable, Sendable {
        case appBundle, appGroups, baseline, budgets, container, contentCoverage, deviceBackup, directories, evidence,
            files, findings
        case generatedAt, groups, issues, kinds, schemaVersion, tool, totals
    }

    /// A row of `files[]` or `directories[]`.
    public enum Entry: String, CaseIterable, Sendable {
        case allocatedBytes, apparentBytes, backup, backupEvidence, escapesContainer, excludedBy, files, hardLink, kind
        case location, modified, path, rawExcludedBy, rawPath, rawSymlinkTarget, sparse, symlinkTarget, systemManaged
        case totalAllocatedBytes, totalApparentBytes, transportArtefact, type, unreadable
    }

    /// A size total (`totals.onDisk`, an app group's `size`, …).
    public enum SizeTotal: String, CaseIterable, Sendable {
        case allocatedBytes, apparentBytes, files
    }

    public enum Totals: String, CaseIterable, Sendable {
        case appData, appSize, backup, byLocation, directories, documentsAndData, onDisk, purgeable, transportArtefacts
    }

    public enum AppSize: String, CaseIterable, Sendable {
        case appGroupBytes, bundleBytes, containerWithoutCachesBytes, totalBytes
    }

    public enum Container: String, CaseIterable, Sendable {
        case allocatedBytesEstimated, archive, bundleIdentifier, bundleIdentifierCandidates, bundleIdentifierClues
        case bundleIdentifierSource, device, exportedAt, exportedAtSource, layout, metadata, path, root
    }

    /// `container.device`: the device an `audit --device` copied the container from.
    public enum Device: String, CaseIterable, Sendable {
        case copiedWith, identifier, model, name, osVersion, udid
    }

    public enum Archive: String, CaseIterable, Sendable {
        case compression, folder, format, path
    }

    /// An entry of `container.bundleIdentifierClues`.
    public enum IdentityClue: String, CaseIterable, Sendable {
        case agrees, identifier, path, source
    }

    /// A value of `container.metadata`.
    public enum MetadataDocument: String, CaseIterable, Sendable {
        case problem, value
    }

    public enum Evidence: String, CaseIterable, Sendable {
        case appleDoubleSidecars, carriesAttributes, declaredByUser, deviceBackup, entriesWithAttributes
        case flaggedByAppleDouble, flaggedByLegacyXattr, flaggedByXattr, summary
    }

    public enum Finding: String, CaseIterable, Sendable {
        case bytes, fingerprint, fix, message, path, rule, severity
    }

    public enum Issue: String, CaseIterable, Sendable {
        case detail, path, rawPath, reason
    }

    public enum Tool: String, CaseIterable, Sendable {
        case name, version
    }

    public enum AppBundle: String, CaseIterable, Sendable {
        case bundleIdentifier, fileSharingEnabled, infoPlist, opensDocumentsInPlace, path, size
    }

    public enum AppGroup: String, CaseIterable, Sendable {
        case identifier, matchedBy, path, size
    }

    public enum Budget: String, CaseIterable, Sendable {
        case actual, exceeded, limit, scope, unit
    }

    /// A value of `groups`.
    public enum Group: String, CaseIterable, Sendable {
        case members, pattern
    }

    public enum GroupMember: String, CaseIterable, Sendable {
        case allocatedBytes, apparentBytes, files, id, path
    }

    public enum DeviceBackup: String, CaseIterable, Sendable {
        case allocatedBytesEstimated, app, companions, date, notInExport, path, productVersion, role
    }

    /// `deviceBackup.app` and each of `deviceBackup.companions`.
    public enum BackupDomain: String, CaseIterable, Sendable {
        case allocatedBytes, apparentBytes, directories, domain, files, identifier, kind, symlinks
    }

    /// `contentCoverage`: what the content checks read (`inspected`, per store), passed over on purpose (`passedOver`:
    /// stores iOS's own frameworks make) and did not read (`skipped`, per reason).
    public enum ContentCoverage: String, CaseIterable, Sendable {
        case complete, inspected, passedOver, skipped
    }

    /// A value of `contentCoverage.inspected` and `contentCoverage.skipped`.
    public enum ContentCount: String, CaseIterable, Sendable {
        case bytes, files
    }

    public enum Baseline: String, CaseIterable, Sendable {
        case stale, suppressed
    }

    /// An entry of `baseline.stale`.
    public enum StaleEntry: String, CaseIterable, Sendable {
        case fingerprint, path, rule
    }
}

extension JSONStream {
    /// A key of report.json's table. The writer's sections are small: the rows, where speed counts, are
    /// rendered by `EntryJSON` and `PlainFileRow` from the same table.
    public func key<Key: RawRepresentable>(_ key: Key) throws where Key.RawValue == String {
        try self.key(escaping: key.rawValue)
    }

    /// An object with a member for every case of `Key` (every location, every backup state), named by its raw
    /// value, in byte order of the names as every object here is; `member` writes each value.
    public func object<Key: CaseIterable & RawRepresentable>(
        everyCaseOf _: Key.Type, compact: Bool = false, _ member: (Key) throws -> Void
    ) throws where Key.RawValue == String {
        try beginObject(compact: compact)
        for value in Key.allCases.sorted(by: { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }) {
            try key(value)
            try member(value)
        }
        try endObject()
    }

    /// `contentCoverage` as report.json and SARIF's run properties write it: every store and every reason, zeros too.
    public func contentCoverage(_ coverage: StocktakeModel.ContentCoverage) throws {
        typealias K = ReportKeys
        func count(_ count: StocktakeModel.ContentCoverage.Count?) throws {
            try beginObject(compact: true)
            try key(K.ContentCount.bytes)
            try int(count?.bytes ?? 0)
            try key(K.ContentCount.files)
            try int(count?.files ?? 0)
            try endObject()
        }
        try beginObject()
        try key(K.ContentCoverage.complete)
        try bool(coverage.isComplete)
        try key(K.ContentCoverage.inspected)
        try object(everyCaseOf: SensitiveItem.Store.self) { try count(coverage.inspected[$0]) }
        try key(K.ContentCoverage.passedOver)
        try count(coverage.passedOver)
        try key(K.ContentCoverage.skipped)
        try object(everyCaseOf: StocktakeModel.ContentCoverage.Reason.self) { try count(coverage.skipped[$0]) }
        try endObject()
    }

    /// A size total as every report and diff writes it: `{"allocatedBytes":…,"apparentBytes":…,"files":…}`.
    public func total(_ total: StocktakeModel.SizeTotal) throws {
        typealias Key = ReportKeys.SizeTotal
        try beginObject(compact: true)
        try key(Key.allocatedBytes)
        try int(total.allocatedBytes)
        try key(Key.apparentBytes)
        try int(total.apparentBytes)
        try key(Key.files)
        try int(total.files)
        try endObject()
    }
}
