import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// The objects report.json shares with the other JSON documents (diff.json, SARIF, the history, `apps --format
/// json`): each has one writer, here, in report.json's keys. The rows, where speed counts, are rendered by
/// `EntryJSON` and `PlainFileRow` from the same key table.
extension JSONStream {
    /// A size total as every report and diff writes it: `{"allocatedBytes":…,"apparentBytes":…,"files":…}`;
    /// nil is null.
    public func field(_ key: some JSONKey, _ total: StocktakeModel.SizeTotal?) throws {
        try self.key(key)
        try self.total(total)
    }

    public func total(_ total: StocktakeModel.SizeTotal?) throws {
        typealias K = ReportKeys.SizeTotal
        guard let total else { return try null() }
        try object(compact: true) {
            try field(K.allocatedBytes, total.allocatedBytes)
            try field(K.apparentBytes, total.apparentBytes)
            try field(K.files, total.files)
        }
    }

    /// An object with a member for every case of `Key` (every location, every backup state), named by its raw
    /// value, in byte order of the names as every object here is; `member` writes each value.
    public func object<Key: CaseIterable & RawRepresentable>(
        everyCaseOf _: Key.Type, compact: Bool = false, _ member: (Key) throws -> Void
    ) throws where Key.RawValue == String {
        try object(compact: compact) {
            for value in Key.allCases.sorted(by: { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }) {
                try field(value.rawValue) { try member(value) }
            }
        }
    }

    /// `contentCoverage` as report.json and SARIF's run properties write it: every store and every reason, zeros too.
    public func contentCoverage(_ coverage: StocktakeModel.ContentCoverage) throws {
        typealias K = ReportKeys
        func count(_ count: StocktakeModel.ContentCoverage.Count?) throws {
            try object(compact: true) {
                try field(K.ContentCount.bytes, count?.bytes ?? 0)
                try field(K.ContentCount.files, count?.files ?? 0)
            }
        }
        try object {
            try field(K.ContentCoverage.complete, coverage.isComplete)
            try field(K.ContentCoverage.inspected) {
                try object(everyCaseOf: SensitiveItem.Store.self) { try count(coverage.inspected[$0]) }
            }
            try field(K.ContentCoverage.passedOver) { try count(coverage.passedOver) }
            try field(K.ContentCoverage.skipped) {
                try object(everyCaseOf: StocktakeModel.ContentCoverage.Reason.self) { try count(coverage.skipped[$0]) }
            }
        }
    }

    /// A finding on one line, as report.json's `findings[]` and diff.json's finding lists (without `fix`) write it.
    public func finding(_ finding: ReportSnapshot.FindingRecord, fix: String? = nil) throws {
        typealias K = ReportKeys.Finding
        try object(compact: true) {
            try field(K.bytes, ifPresent: finding.bytes)
            try field(K.fingerprint, finding.fingerprint)
            try field(K.fix, ifPresent: fix)
            try field(K.message, finding.message)
            try field(K.path, finding.path)
            try field(K.rule, finding.rule)
            try field(K.severity, finding.severity.rawValue)
        }
    }

    /// A backup domain on one line (`deviceBackup.app` and each companion); `apps --format json` adds that its
    /// allocated bytes are an estimate (whole 4 KiB blocks).
    public func backupDomain(_ domain: DeviceBackupSummary.Domain, estimated: Bool = false) throws {
        typealias K = ReportKeys.BackupDomain
        try object(compact: true) {
            try field(K.allocatedBytes, domain.total.allocatedBytes)
            if estimated { try field(ReportKeys.DeviceBackup.allocatedBytesEstimated, true) }
            try field(K.apparentBytes, domain.total.apparentBytes)
            try field(K.directories, domain.directories)
            try field(K.domain, domain.name)
            try field(K.files, domain.total.files)
            try field(K.identifier, domain.identifier)
            try field(K.kind, domain.kind.rawValue)
            try field(K.symlinks, domain.symlinks)
        }
    }
}

extension ReportSnapshot.FindingRecord {
    public init(_ finding: Finding) {
        self.init(
            rule: finding.rule, severity: finding.severity, path: finding.path, message: finding.message,
            fingerprint: finding.fingerprint, bytes: finding.bytes)
    }
}
