import StocktakeDiff
import StocktakeModel
import StocktakePolicy
import StocktakeReport
import TestSupport

@testable import StocktakeHistory
@testable import StocktakeNightly

/// Runs and report snapshots built by hand, with figures chosen so each total is distinguishable.
enum HistoryFixtures {
    static let chat = "com.example.chat"

    /// A report snapshot of `onDisk` allocated bytes, with a spread over locations, backup states and findings.
    static func snapshot(onDisk: Int64, appVersion: String? = "2.1", findings: [(String, Severity)] = [])
        -> ReportSnapshot
    {
        let byLocation: [Location: SizeTotal] = [
            .documents: SizeTotal(files: 3, apparentBytes: onDisk / 4 - 100, allocatedBytes: onDisk / 4),
            .applicationSupport: SizeTotal(files: 5, apparentBytes: onDisk / 4 - 50, allocatedBytes: onDisk / 4),
            .caches: SizeTotal(files: 7, apparentBytes: onDisk / 8, allocatedBytes: onDisk / 8),
        ]
        return ReportSnapshot(
            provenance: ReportSnapshot.Provenance(
                source: "Reports/\(chat)/x/report.json", schemaVersion: 1, toolName: "stocktake", toolVersion: "0.1.0",
                generatedAt: "2026-11-21T02:00:00Z", bundleIdentifier: chat, appVersion: appVersion,
                containerPath: "/inbox/chat.xcappdata", layout: "xcappdata"),
            totals: ReportSnapshot.Totals(
                onDisk: SizeTotal(files: 20, apparentBytes: onDisk - 4096, allocatedBytes: onDisk),
                byLocation: byLocation,
                documentsAndData: SizeTotal(files: 8, apparentBytes: onDisk / 2 - 150, allocatedBytes: onDisk / 2),
                purgeable: SizeTotal(files: 7, apparentBytes: onDisk / 8, allocatedBytes: onDisk / 8),
                backup: [
                    .included: SizeTotal(files: 2, apparentBytes: 1, allocatedBytes: 4096),
                    .excluded: SizeTotal(files: 1, apparentBytes: 1, allocatedBytes: 8192),
                    .excludedBySystem: SizeTotal(files: 7, apparentBytes: 1, allocatedBytes: onDisk / 8),
                    .unknown: SizeTotal(files: 5, apparentBytes: 1, allocatedBytes: 12_288),
                ]),
            files: EntryTable(), directories: EntryTable(), groups: [:], budgets: [],
            findings: findings.enumerated().map { index, finding in
                ReportSnapshot.FindingRecord(
                    rule: finding.0, severity: finding.1, path: "Documents/\(index)", message: "m",
                    fingerprint: "f\(index)", bytes: nil)
            })
    }

    static func run(
        _ runID: String, bundleIdentifier: String = chat, onDisk: Int64 = 1_000_000, status: HistoryRun.Status = .clean,
        findings: [(String, Severity)] = [("documents-hidden-data", .warning)]
    ) -> HistoryRun {
        HistoryRun(
            bundleIdentifier: bundleIdentifier, runID: runID, snapshot: snapshot(onDisk: onDisk, findings: findings),
            status: status)
    }

}

/// A new store in its own temporary folder, which lives as long as this object.
final class StoreFixture {
    let tree: TemporaryTree
    let store: HistoryStore

    init() throws {
        tree = try TemporaryTree("history")
        store = try HistoryStore(path: HistoryStore.path(inReports: tree.root))
    }
}

extension RunHistory {
    /// The default source's runs of one app (what every store held before sources were kept).
    func runs(bundleIdentifier: String, limit: Int) throws(HistoryError) -> [HistoryRun] {
        try runs(of: RunSeries(bundleIdentifier: bundleIdentifier), limit: limit)
    }

    func runIDs(bundleIdentifier: String) throws(HistoryError) -> [String] {
        try runIDs(of: RunSeries(bundleIdentifier: bundleIdentifier))
    }
}
