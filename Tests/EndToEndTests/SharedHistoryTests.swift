import Foundation
import TestSupport
import Testing

/// Many machines, one history, through the real binary: separate nightly jobs (separate inboxes and report folders)
/// and `stocktake record` calls write one history; `stocktake index` and `stocktake history` read it back. Here on
/// an SQLite file (every build); `PostgresSharedHistoryTests` does the same and more on a PostgreSQL server.
@Suite struct SharedHistoryTests {
    /// Two machines' nightly jobs record into one history; one index shows both apps, linked to both report folders.
    @Test func twoMachinesNightlyRunsMakeOneHistoryAndOneIndex() throws {
        let tree = try TemporaryTree("shared")
        let history = tree.path("shared/history.sqlite")
        try tree.mkdir("shared")
        try SharedHistory.twoMachines(tree: tree, history: history, environment: [:])
    }

    /// A retried `record` replaces its run; the metrics file is what Prometheus' own tool accepts.
    @Test func recordIsIdempotentAndWritesMetrics() throws {
        let tree = try TemporaryTree("record")
        let report = try SharedHistory.sampleReport(in: tree)
        let history = tree.path("history.sqlite")
        for _ in 0..<3 {
            let result = try StocktakeProcess.run(
                [
                    "record", report, "--history", history, "--source", "ci-sim", "--duration-seconds", "4.25",
                    "--metrics-file", tree.path("stocktake.prom"),
                ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        }
        let shown = try StocktakeProcess.run(
            ["history", "com.example.chat", "--history", history, "--source", "ci-sim", "--format", "json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let runs = try #require(
            (try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["runs"] as? [Any])
        #expect(runs.count == 1)
        let metrics = try String(contentsOfFile: tree.path("stocktake.prom"), encoding: .utf8)
        try SharedHistory.checkMetrics(metrics)
        #expect(metrics.contains("stocktake_run_duration_seconds{app=\"com.example.chat\",source=\"ci-sim\"} 4.25\n"))
        #expect(
            metrics.contains("stocktake_findings{app=\"com.example.chat\",source=\"ci-sim\",severity=\"error\"} 1\n"))
    }

    /// A password with an unescaped `@` or `/`: the command fails, in either build, and shows no part of it.
    @Test func noPartOfAPasswordWithAnUnescapedAtIsShown() throws {
        let tree = try TemporaryTree("record")
        let report = try SharedHistory.sampleReport(in: tree)
        let words = (0..<3).map { _ in "w" + UUID().uuidString.prefix(8) }
        for url in [
            "postgresql://stocktake:\(words[0])@\(words[1])@127.0.0.1:1/\(words[2])",
            "postgresql://stocktake:\(words[0])/\(words[1])@127.0.0.1:1/\(words[2])",
        ] {
            for command in [["record", report], ["index", "--output", tree.path("index")]] {
                let result = try StocktakeProcess.run(command + ["--history", url])
                #expect(result.status != 0 && result.status < 128, "\(result.stderr)")
                #expect(result.stderr.contains("write an '@', '/' or ':' in a user name or password as %40"))
                for word in words.prefix(2) {
                    #expect(!result.stderr.contains(word) && !result.stdout.contains(word), "\(result.stderr)")
                }
            }
        }
    }

    @Test func aSourceNameIsChecked() throws {
        let tree = try TemporaryTree("record")
        let result = try StocktakeProcess.run(
            ["record", tree.path("report.json"), "--history", tree.path("h.sqlite"), "--source", "two words"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("a source name is letters, digits"))
    }
}

/// What the shared-history tests do on either store.
enum SharedHistory {
    static let nights = ["1795226400", "1795312800"]  // 2026-11-21 and -22 at 02:00 UTC

    /// The sample audited once into `tree/audit`: its report.json.
    static func sampleReport(in tree: TemporaryTree) throws -> String {
        let audit = try StocktakeProcess.run([
            "audit", Repository.root + "/Samples/ChatApp.xcappdata", "--output", tree.path("audit"), "--quiet",
        ])
        try #require([0, 2].contains(audit.status), "\(audit.stderr)")
        return tree.path("audit/report.json")
    }

    /// Machine A audits the chat sample on two nights, machine B another app on one night, each into reports of its
    /// own; both record into `history`. The index built from the history alone shows both apps and links to both.
    static func twoMachines(tree: TemporaryTree, history: String, environment: [String: String]) throws {
        let farmA = try NightlyJobTests.Farm()
        let farmB = try NightlyJobTests.Farm()
        try farmB.bare("Notes.xcappdata", bundleID: "com.example.notes")
        for night in 0..<2 {
            try farmA.export(version: night + 1)
            let result = try StocktakeProcess.run(
                ["nightly", farmA.inbox, farmA.reports, "--history", history, "--source", "farm-a"],
                environment: environment.merging(["SOURCE_DATE_EPOCH": nights[night]]) { $1 })
            #expect([0, 2].contains(result.status), "\(result.stderr)")
        }
        let resultB = try StocktakeProcess.run(
            ["nightly", farmB.inbox, farmB.reports, "--history", history, "--source", "farm-b"],
            environment: environment.merging(["SOURCE_DATE_EPOCH": nights[1]]) { $1 })
        #expect([0, 2].contains(resultB.status), "\(resultB.stderr)")

        let index = tree.path("index")
        let built = try StocktakeProcess.run(
            ["index", "--history", history, "--output", index], environment: environment)
        #expect(built.status == 0, "\(built.stderr)")
        let page = try String(contentsOfFile: index + "/index.html", encoding: .utf8)
        #expect(page.contains("com.example.chat") && page.contains("com.example.notes"))
        #expect(page.contains("farm-a") && page.contains("farm-b"))
        // Each app's latest report, reached from the index's folder: both machines' folders are on this disk.
        let links = hrefs(page).filter { $0.hasSuffix("/report.html") }
        #expect(links.count == 2, "\(links)")
        for link in links {
            let target = URL(fileURLWithPath: index + "/" + (link.removingPercentEncoding ?? link)).standardized.path
            #expect(FileManager.default.fileExists(atPath: target), "\(link) from \(index)")
        }
        // Machine A's trend holds both nights: its diff link is the second night's.
        #expect(hrefs(page).contains { $0.hasSuffix("2026-11-22T020000Z/diff.html") })

        let shown = try StocktakeProcess.run(
            ["history", "com.example.chat", "--history", history, "--source", "farm-a", "--format", "json"],
            environment: environment)
        #expect(shown.status == 0, "\(shown.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(
            (json["runs"] as? [[String: Any]])?.compactMap { $0["runID"] as? String } == [
                "2026-11-21T020000Z", "2026-11-22T020000Z",
            ])
        withExtendedLifetime((farmA, farmB)) {}
    }

    static func hrefs(_ page: String) -> [String] {
        page.components(separatedBy: "href=\"").dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
    }

    /// The metrics file as Prometheus reads it (`MetricsOracle`), and the OpenMetrics shape: units as suffixes, the
    /// `# EOF` ending.
    static func checkMetrics(_ text: String) throws {
        #expect(text.hasSuffix("# EOF\n"))
        for line in text.split(separator: "\n") where line.hasPrefix("# UNIT ") {
            let parts = line.split(separator: " ")
            #expect(parts.count == 4 && parts[2].hasSuffix("_" + parts[3]), "\(line)")
        }
        try MetricsOracle.check(text)
    }
}
