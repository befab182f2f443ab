import Foundation
import TestSupport
import Testing

/// Issue 41 through the real binary: a report.json given to `record` is untrusted input, and whatever a history
/// holds, `index`, `history` and the metrics survive it. Each hostile report is the sample's, changed.
@Suite struct HostileRecordTests {
    /// The sample's report.json, changed by `change`, written to `tree/hostile/name.json` (a folder of its own: the
    /// tests' other files are not in the report's folder).
    static func hostileReport(
        _ tree: TemporaryTree, _ name: String, _ change: (inout [String: Any]) -> Void
    ) throws -> String {
        let sample = try SharedHistory.sampleReport(in: tree)
        var report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sample))) as? [String: Any])
        change(&report)
        try tree.mkdir("hostile")
        let path = tree.path("hostile/\(name).json")
        try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func setLocation(_ report: inout [String: Any], _ location: String, bytes: Int64) {
        var totals = report["totals"] as? [String: Any] ?? [:]
        var byLocation = totals["byLocation"] as? [String: Any] ?? [:]
        byLocation[location] = ["allocatedBytes": bytes, "apparentBytes": bytes, "files": 1]
        totals["byLocation"] = byLocation
        report["totals"] = totals
    }

    /// Issue 41, 1: two 5e18-byte locations recorded, then every later `index` crashed (exit 132).
    @Test func exabyteLocationsRecordAndIndex() throws {
        let tree = try TemporaryTree("exabytes")
        let report = try Self.hostileReport(tree, "exabytes") { report in
            Self.setLocation(&report, "documents", bytes: 5_000_000_000_000_000_000)
            Self.setLocation(&report, "caches", bytes: 5_000_000_000_000_000_000)
        }
        let history = tree.path("history.sqlite")
        let record = try StocktakeProcess.run(
            ["record", report, "--history", history, "--metrics-file", tree.path("m.prom")])
        #expect(record.status == 0, "\(record.stderr)")
        let index = try StocktakeProcess.run(["index", "--history", history, "--output", tree.path("index")])
        #expect(index.status == 0, "\(index.stderr)")
        #expect(FileManager.default.fileExists(atPath: tree.path("index/index.html")))
        // Issue 41, 5: the largest --limit `history` takes, `index` takes too.
        let limit = try StocktakeProcess.run([
            "index", "--history", history, "--output", tree.path("index"), "--limit", "9223372036854775807",
        ])
        #expect(limit.status == 0, "\(limit.stderr)")
    }

    /// Issue 41, 2: a 20-digit fraction of a second crashed `record --metrics-file` after recording. It is refused
    /// before anything is recorded, naming the value.
    @Test func aTwentyDigitFractionIsRefusedBeforeRecording() throws {
        let tree = try TemporaryTree("fraction")
        let report = try Self.hostileReport(tree, "fraction") {
            $0["generatedAt"] = "2026-11-21T02:00:00.12345678901234567890Z"
        }
        let history = tree.path("history.sqlite")
        let result = try StocktakeProcess.run(
            ["record", report, "--history", history, "--metrics-file", tree.path("m.prom")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("generatedAt '2026-11-21T02:00:00.12345678901234567890Z' is not a UTC time"))
        #expect(!FileManager.default.fileExists(atPath: history), "nothing recorded")
    }

    /// Issue 41, 17: a 5 MB severity was echoed whole on stderr.
    @Test func aHugeValueIsNotEchoedWhole() throws {
        let tree = try TemporaryTree("severity")
        let huge = String(repeating: "\u{1B}[2J", count: 1_250_000)
        let report = try Self.hostileReport(tree, "severity") { report in
            var findings = report["findings"] as? [[String: Any]] ?? []
            findings[0]["severity"] = huge
            report["findings"] = findings
        }
        let result = try StocktakeProcess.run(["record", report, "--history", tree.path("h.sqlite")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not a severity (error, warning, note)"))
        #expect(result.stderr.contains("(5000000 bytes)"))
        #expect(result.stderr.utf8.count < 2_000)
        #expect(!result.stderr.contains("\u{1B}"))
    }

    /// Issue 41, 16: an address with a query or a fragment is refused at `record`, by the index's own rule.
    @Test func aReportURLWithAQueryIsRefused() throws {
        let tree = try TemporaryTree("url")
        let report = try SharedHistory.sampleReport(in: tree)
        let result = try StocktakeProcess.run([
            "record", report, "--history", tree.path("h.sqlite"), "--report-url",
            "https://ci.example.com/job/1/artifacts?path=report",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--report-url: "))
        #expect(result.stderr.contains("has a query or a fragment"))
    }

    /// Issue 41, 8: `--metrics-file` naming the history replaced it (every later night failed); naming a report
    /// replaced the report. Both are refused, and the file is left as it was.
    @Test func theMetricsFileNeverReplacesTheHistoryOrAReport() throws {
        let tree = try TemporaryTree("metrics")
        let report = try SharedHistory.sampleReport(in: tree)
        let history = tree.path("history.sqlite")
        #expect(try StocktakeProcess.run(["record", report, "--history", history]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: history))
        for target in [history, report] {
            let kept = try Data(contentsOf: URL(fileURLWithPath: target))
            let result = try StocktakeProcess.run(["record", report, "--history", history, "--metrics-file", target])
            #expect(result.status == 1)
            #expect(result.stderr.contains("refusing to write the metrics file to \(target)"), "\(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == kept)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: history)) == before)

        let farm = try NightlyJobTests.Farm()
        try farm.export(version: 1)
        for target in [Paths.join(farm.inbox, "stocktake.prom"), Paths.join(farm.reports, "history.sqlite")] {
            let result = try StocktakeProcess.run(["nightly", farm.inbox, farm.reports, "--metrics-file", target])
            #expect(result.status == 1)
            #expect(result.stderr.contains("refusing to write the metrics file to \(target)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }

    /// Issue 41, 9: two audits of one app in the same second wrote into one folder; the second gets `-2`.
    @Test func twoAuditsInOneSecondKeepBothReports() throws {
        let tree = try TemporaryTree("same-second")
        var folders: Set<String> = []
        for _ in 0..<2 {
            let result = try StocktakeProcess.run(
                ["audit", Repository.root + "/Samples/ChatApp.xcappdata", "--quiet"], currentDirectory: tree.root,
                environment: ["SOURCE_DATE_EPOCH": SharedHistory.nights[0]])
            #expect([0, 2].contains(result.status), "\(result.stderr)")
        }
        let app = tree.path("Reports/com.example.chat")
        folders = Set(try FileManager.default.contentsOfDirectory(atPath: app))
        #expect(folders == ["2026-11-21T020000Z", "2026-11-21T020000Z-2"])
        for folder in folders {
            #expect(FileManager.default.fileExists(atPath: Paths.join(app, folder, "report.json")))
        }
    }

    /// Issue 41, 10: `--source` added to a reports folder re-recorded every past run under it (each app twice in
    /// the index, the trend restarted). The night is refused, saying which source the folder's runs have.
    @Test func aNewSourceOnAnOldReportsFolderIsRefused() throws {
        let farm = try NightlyJobTests.Farm()
        try farm.export(version: 1)
        let first = try StocktakeProcess.run(
            ["nightly", farm.inbox, farm.reports], environment: ["SOURCE_DATE_EPOCH": SharedHistory.nights[0]])
        #expect([0, 2].contains(first.status), "\(first.stderr)")
        try farm.export(version: 2)
        let second = try StocktakeProcess.run(
            ["nightly", farm.inbox, farm.reports, "--source", "farm-ipad"],
            environment: ["SOURCE_DATE_EPOCH": SharedHistory.nights[1]])
        #expect(second.status == 1)
        #expect(second.stderr.contains("runs recorded under the source 'default'"), "\(second.stderr)")
        #expect(second.stderr.contains("pass --source default"))
        let shown = try StocktakeProcess.run([
            "history", "com.example.chat", "--history", Paths.join(farm.reports, "history.sqlite"), "--source",
            "farm-ipad",
        ])
        #expect(shown.status == 1, "nothing recorded under the new source")
    }
}

/// Path joining for the tests above.
private enum Paths {
    static func join(_ parts: String...) -> String { parts.joined(separator: "/") }
}
