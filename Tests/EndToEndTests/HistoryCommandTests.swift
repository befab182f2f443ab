import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

@testable import StocktakeHistory
@testable import StocktakeNightly

/// `stocktake history` through the real binary, on a store the library wrote (as the nightly job would).
@Suite struct HistoryCommandTests {
    static let chat = "com.example.chat"

    static func run(_ runID: String, onDisk: Int64, findings: [Severity: Int], status: HistoryRun.Status = .clean)
        -> HistoryRun
    {
        HistoryRun(
            bundleIdentifier: chat, runID: runID, generatedAt: "2026-11-21T02:00:00Z", toolVersion: "0.1.0",
            appVersion: "2.1",
            onDisk: SizeTotal(files: 40, apparentBytes: onDisk - 5000, allocatedBytes: onDisk),
            documentsAndData: SizeTotal(files: 30, apparentBytes: onDisk / 2, allocatedBytes: onDisk / 2),
            purgeable: SizeTotal(files: 10, apparentBytes: onDisk / 4, allocatedBytes: onDisk / 4),
            byLocation: [.documents: SizeTotal(files: 30, apparentBytes: onDisk / 2, allocatedBytes: onDisk / 2)],
            backedUpBytes: 300_000, excludedBytes: 250_000, unknownBackupBytes: 0, findingsBySeverity: findings,
            findings: findings[.warning].map {
                [FindingCount(rule: "documents-hidden-data", severity: .warning, count: $0)]
            } ?? [],
            status: status)
    }

    /// A reports folder whose store holds three runs of the chat app and one of another app.
    static func reports() throws -> TemporaryTree {
        let tree = try TemporaryTree("reports")
        let store = try HistoryStore(path: HistoryStore.path(inReports: tree.root))
        try store.record(run("2026-11-19T020000Z", onDisk: 1_000_000, findings: [.warning: 1]))
        try store.record(run("2026-11-20T020000Z", onDisk: 1_500_000, findings: [.warning: 2]))
        try store.record(
            run("2026-11-21T020000Z", onDisk: 1_200_000, findings: [.error: 1, .warning: 2], status: .policyFailure))
        try store.record(
            HistoryRun(
                bundleIdentifier: "com.example.maps", runID: "2026-11-21T020000Z", generatedAt: "2026-11-21T02:00:00Z",
                toolVersion: "0.1.0", appVersion: nil,
                onDisk: .zero, documentsAndData: .zero, purgeable: .zero, byLocation: [:], backedUpBytes: 0,
                excludedBytes: 0,
                unknownBackupBytes: 0, findingsBySeverity: [:], findings: [], status: .clean))
        return tree
    }

    @Test func textShowsEveryRunWithItsChange() throws {
        let tree = try Self.reports()
        let result = try StocktakeProcess.run(["history", Self.chat, "--reports", tree.root])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "com.example.chat: 3 runs, oldest first; sizes are allocated bytes")
        let header = try #require(lines.first { $0.hasPrefix("Run ") })
        for column in [
            "App version", "On disk", "Documents & Data", "Backed up", "Purgeable", "Findings e/w/n", "Change",
            "Status",
        ] {
            #expect(header.contains(column), "\(column)")
        }
        let rows = lines.filter { $0.hasPrefix("2026-11-") }
        #expect(rows.count == 3)
        #expect(rows[0].hasPrefix("2026-11-19T020000Z") && rows[2].hasPrefix("2026-11-21T020000Z"), "oldest first")
        #expect(rows[0].contains("1.0 MB") && rows[0].contains("0/1/0") && rows[0].hasSuffix("-  clean"), "\(rows[0])")
        #expect(rows[1].contains("+500 KB (+50.0%)"), "\(rows[1])")
        #expect(
            rows[2].contains("-300 KB (-20.0%)") && rows[2].contains("1/2/0") && rows[2].hasSuffix("policy failure"),
            "\(rows[2])")
        #expect(rows[2].contains("300 KB") && rows[2].contains("600 KB"), "backed up and Documents & Data")

        // --limit shows fewer runs, not less: the first row's change is against the run before it, left out.
        let last = try StocktakeProcess.run(["history", Self.chat, "--reports", tree.root, "--limit", "1"])
        let shown = last.stdout.split(separator: "\n").filter { $0.hasPrefix("2026-11-") }
        #expect(shown.map { String($0.prefix(18)) } == ["2026-11-21T020000Z"])
        #expect(shown.first?.contains("-300 KB (-20.0%)") == true, "\(last.stdout)")
    }

    @Test func jsonHasSortedKeysAndIntegerBytes() throws {
        let tree = try Self.reports()
        let result = try StocktakeProcess.run([
            "history", Self.chat, "--reports", tree.root, "--format", "json", "--limit", "2",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try OrderedJSON.parse(Array(result.stdout.utf8))
        document.forEachObject { location, pairs in
            for (a, b) in zip(pairs, pairs.dropFirst()) {
                #expect(a.key.precedesByCodePoints(b.key), "keys out of order at \(location): \(a.key) then \(b.key)")
            }
        }
        #expect(document["bundleIdentifier"]?.stringValue == Self.chat)
        let runs = try #require(document["runs"]?.items)
        #expect(runs.map { $0["runID"]?.stringValue } == ["2026-11-20T020000Z", "2026-11-21T020000Z"])
        let latest = runs[1]
        #expect(latest["onDisk"]?["allocatedBytes"]?.integerValue == 1_200_000)
        #expect(latest["onDisk"]?["apparentBytes"]?.integerValue == 1_195_000)
        #expect(latest["documentsAndData"]?["files"]?.integerValue == 30)
        #expect(latest["backup"]?["includedBytes"]?.integerValue == 300_000)
        #expect(latest["backup"]?["excludedBytes"]?.integerValue == 250_000)
        #expect(latest["byLocation"]?["documents"]?["allocatedBytes"]?.integerValue == 600_000)
        #expect(latest["byLocation"]?["tmp"]?["allocatedBytes"]?.integerValue == 0, "every location is present")
        #expect(latest["findings"]?["bySeverity"]?["error"]?.integerValue == 1)
        #expect(latest["findings"]?["byRule"]?["documents-hidden-data"]?.integerValue == 2)
        #expect(latest["status"]?.stringValue == "policyFailure")
        #expect(latest["appVersion"]?.stringValue == "2.1")
        // Every key is a case of the key table, and the table's shared keys are report.json's.
        #expect(document.keys == SchemaProperties.names(HistoryKeys.Document.self))
        #expect(latest.keys == SchemaProperties.names(HistoryKeys.Run.self))
        #expect(latest["backup"]?.keys == SchemaProperties.names(HistoryKeys.Backup.self))
        #expect(latest["findings"]?.keys == SchemaProperties.names(HistoryKeys.Findings.self))
        let shared: [(history: String, report: String)] = [
            (HistoryKeys.Document.bundleIdentifier.rawValue, ReportKeys.Container.bundleIdentifier.rawValue),
            (HistoryKeys.Run.byLocation.rawValue, ReportKeys.Totals.byLocation.rawValue),
            (HistoryKeys.Run.documentsAndData.rawValue, ReportKeys.Totals.documentsAndData.rawValue),
            (HistoryKeys.Run.onDisk.rawValue, ReportKeys.Totals.onDisk.rawValue),
            (HistoryKeys.Run.purgeable.rawValue, ReportKeys.Totals.purgeable.rawValue),
            (HistoryKeys.Run.generatedAt.rawValue, ReportKeys.Document.generatedAt.rawValue),
        ]
        for (history, report) in shared { #expect(history == report) }
    }

    @Test func aMissingStoreOrAnUnknownAppExitsOneAndSaysWhy() throws {
        let empty = try TemporaryTree("reports")
        let missing = try StocktakeProcess.run(["history", Self.chat, "--reports", empty.root])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("history store \(empty.root)/history.sqlite does not exist"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: empty.path("history.sqlite")), "a reader creates nothing")

        let tree = try Self.reports()
        let unknown = try StocktakeProcess.run(["history", "com.example.mail", "--reports", tree.root])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no runs recorded for 'com.example.mail'"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("com.example.chat, com.example.maps"), "names the apps it knows")
        #expect(unknown.stdout.isEmpty)

        let badLimit = try StocktakeProcess.run(["history", Self.chat, "--reports", tree.root, "--limit", "0"])
        #expect(badLimit.status == 64)
        let badFormat = try StocktakeProcess.run(["history", Self.chat, "--reports", tree.root, "--format", "xml"])
        #expect(badFormat.status == 64)
    }
}
