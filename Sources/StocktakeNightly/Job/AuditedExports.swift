import Foundation
import StocktakeAudit
import StocktakeFiles
import StocktakeModel
import StocktakeRendering

/// What the nightly job knows of an inbox entry before auditing it.
struct InboxEntry {
    let name: String
    let input: InputDescription
    let fingerprint: ExportFingerprint?
    var exportedAt: ExportTime? { input.exportedAt }

    /// A device backup's fingerprint holds the apps asked for, which change what is audited.
    init(name: String, inbox: String, policyDigest: String, backupApps: [String] = []) {
        self.name = name
        let input = InputDescription(path: Paths.join(inbox, name))
        self.input = input
        let apps =
            input.kind == .deviceBackup && !backupApps.isEmpty ? " apps " + backupApps.joined(separator: ",") : ""
        fingerprint = input.signature.map {
            ExportFingerprint(
                input: name, bundleIdentifier: input.bundleIdentifier,
                exportedAt: input.containerExportedAt.map { "\(ReportDates.exportTime($0)) (\($0.source.rawValue))" },
                signature: $0, policy: policyDigest + apps)
        }
    }

    /// Oldest export first, so that an app's runs, `latest` and its history follow export time; ties by name.
    static func exportOrder(_ a: InboxEntry, _ b: InboxEntry) -> Bool {
        switch (a.exportedAt, b.exportedAt) {
        case (let x?, let y?) where (x.seconds, x.milliseconds) != (y.seconds, y.milliseconds):
            (x.seconds, x.milliseconds) < (y.seconds, y.milliseconds)
        case (.some, nil): true
        case (nil, .some): false
        default: a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
    }
}

/// One audited export and the policy it was held to: any difference means the export is audited again.
struct ExportFingerprint: Codable, Hashable {
    let input: String
    let bundleIdentifier: String?
    let exportedAt: String?
    let signature: InputSignature
    let policy: String
}

/// The fingerprints of audited exports, which the next night skips; rebuilt from the runs' `RunInput` when missing.
struct AuditedExports {
    static let fileName = ".stocktake-audited.json"
    private struct Document: Codable {
        var version = 1
        var exports: [Audited]
    }

    struct Audited: Codable {
        let fingerprint: ExportFingerprint
        /// `<app>/<run id>`.
        let run: String
    }

    let path: String
    private(set) var exports: [String: Audited] = [:]

    init(reportsPath: String) {
        path = Paths.join(reportsPath, Self.fileName)
        var options = RegularFile.Options.named(maxBytes: 64 << 20)
        guard let bytes = try? RegularFile.open(path, options: &options).readAll(),
            let document = try? JSONDecoder().decode(Document.self, from: Data(bytes)), document.version == 1
        else { return }
        for audited in document.exports { exports[audited.fingerprint.input] = audited }
    }

    func auditedRun(_ fingerprint: ExportFingerprint) -> String? {
        guard let audited = exports[fingerprint.input], audited.fingerprint == fingerprint else { return nil }
        return audited.run
    }

    mutating func record(_ fingerprint: ExportFingerprint, run: String) {
        exports[fingerprint.input] = Audited(fingerprint: fingerprint, run: run)
    }

    /// Forgets exports that left the inbox, then writes the record atomically.
    mutating func save(keeping inbox: Set<String>) throws {
        exports = exports.filter { inbox.contains($0.key) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let document = Document(exports: exports.values.sorted { $0.fingerprint.input < $1.fingerprint.input })
        try AtomicFile.write(Array(try encoder.encode(document)), to: path)
    }
}
