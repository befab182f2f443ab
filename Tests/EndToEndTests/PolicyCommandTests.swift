import Foundation
import TestSupport
import Testing

/// The policy through the real binary: exit statuses, `--fail-on`, `--strict`, `stocktake rules`.
@Suite struct PolicyCommandTests {
    /// A container with a database and a log in Documents (hidden data), nothing else wrong.
    static func container() throws -> TemporaryTree {
        let tree = try TemporaryTree("policy")
        try tree.write("Documents/Report.pdf", bytes: Array("%PDF-1.7 body".utf8))
        try tree.write(
            "Documents/store.sqlite", bytes: Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 100))
        try tree.write("Documents/debug.log", string: "started\n")
        try tree.mkdir("Library/Preferences")
        try tree.mkdir("tmp")
        return tree
    }

    func findings(_ out: TemporaryTree) throws -> [[String: Any]] { try findings(in: out.root) }

    func findings(in folder: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(report["findings"] as? [[String: Any]])
    }

    @Test func warningsPassByDefaultAndFailWithStrictOrFailOnWarning() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        let plain = try StocktakeProcess.run(["audit", tree.root, "--output", out.root, "--format", "json"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let found = try findings(out)
        #expect(
            found.contains {
                $0["rule"] as? String == "documents-hidden-data" && $0["path"] as? String == "Documents/store.sqlite"
            })
        #expect(found.allSatisfy { $0["severity"] as? String != "error" })
        #expect(plain.stdout.contains("Findings:"))
        for flags in [["--strict"], ["--fail-on", "warning"]] {
            let result = try StocktakeProcess.run(
                ["audit", tree.root, "--output", out.root, "--format", "json", "--quiet"] + flags)
            #expect(result.status == 2, "\(flags)")
            // The reports are written even when the policy fails.
            #expect(FileManager.default.fileExists(atPath: out.path("report.json")))
        }
        let never = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.root, "--format", "json", "--strict", "--fail-on", "never", "--quiet",
        ])
        #expect(never.status == 2, "--strict wins over --fail-on never")
        let lenient = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.root, "--format", "json", "--fail-on", "never", "--quiet",
        ])
        #expect(lenient.status == 0)
    }

    @Test func rulesAreListedAndExplained() throws {
        let list = try StocktakeProcess.run(["rules"])
        #expect(list.status == 0)
        for id in ["documents-hidden-data", "redownloadable-in-backup", "sqlite-sidecar", "tmp-leftovers"] {
            #expect(list.stdout.contains(id), "\(id)")
        }
        // A rule that escalates lists the severity it really gets, not only its default.
        let cookie = try #require(list.stdout.split(separator: "\n").first { $0.hasPrefix("credential-cookie ") })
        #expect(cookie.contains("warning") && cookie.hasSuffix("(error when backed up)"), "\(cookie)")
        let one = try StocktakeProcess.run(["rules", "documents-hidden-data"])
        #expect(one.status == 0)
        #expect(one.stdout.contains("Default severity: warning; error when Documents is exposed"))
        #expect(one.stdout.contains("Fix:"))
        let typo = try StocktakeProcess.run(["rules", "documents-hiden-data"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("did you mean 'documents-hidden-data'"))
        let badFailOn = try StocktakeProcess.run(["audit", "x", "--fail-on", "sometimes"])
        #expect(badFailOn.status == 64)
    }

    @Test func aBaselineRoundTripsAndReportsWhatWentAway() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        let baseline = out.path("baseline.json")
        let first = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.path("r1"), "--strict", "--write-baseline", baseline, "--quiet",
        ])
        #expect(first.status == 2)
        // Against its own baseline the same container passes, and the report counts what was suppressed.
        let second = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.path("r2"), "--strict", "--baseline", baseline, "--quiet",
        ])
        #expect(second.status == 0, "\(second.stderr)")
        let report =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("r2/report.json"))))
            as? [String: Any]
        let summary = try #require(report?["baseline"] as? [String: Any])
        #expect(summary["suppressed"] as? Int == (try findings(in: out.path("r1"))).count)
        #expect((report?["findings"] as? [Any])?.isEmpty == true)
        // Without --quiet the summary and summary.md say how many the baseline suppressed.
        let told = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.path("r2b"), "--format", "json,markdown", "--baseline", baseline,
        ])
        let suppressed = try #require(summary["suppressed"] as? Int)
        #expect(
            told.stdout.contains("Findings:   none (\(suppressed) findings suppressed by the baseline)"),
            "\(told.stdout)")
        let markdown = try String(contentsOfFile: out.path("r2b/summary.md"), encoding: .utf8)
        #expect(markdown.contains("**Findings:** none (\(suppressed) findings suppressed by the baseline)."))
        // A fixed problem shows up as a stale baseline entry; a new one fails the run.
        try FileManager.default.removeItem(atPath: tree.path("Documents/debug.log"))
        try tree.write("Documents/new.lock", string: "")
        let third = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.path("r3"), "--strict", "--baseline", baseline, "--quiet",
        ])
        #expect(third.status == 2)
        let later =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("r3/report.json"))))
            as? [String: Any]
        let stale = try #require((later?["baseline"] as? [String: Any])?["stale"] as? [[String: Any]])
        #expect(stale.map { $0["path"] as? String } == ["Documents/debug.log"])
        #expect((later?["findings"] as? [[String: Any]])?.map { $0["path"] as? String } == ["Documents/new.lock"])
    }

    @Test func initWritesAConfigurationTheAuditAccepts() throws {
        let work = try TemporaryTree("init")
        let written = try StocktakeProcess.run(["init"], currentDirectory: work.root)
        #expect(written.status == 0)
        let again = try StocktakeProcess.run(["init"], currentDirectory: work.root)
        #expect(again.status == 1, "refuses to overwrite")
        let tree = try Self.container()
        let audit = try StocktakeProcess.run(
            ["audit", tree.root, "--output", work.path("out"), "--quiet"], currentDirectory: work.root)
        #expect(audit.status == 0, "\(audit.stderr)")
    }

    /// Issue 11: the generated file changes nothing until edited, also with one option changed (a context-
    /// dependent severity keeps adapting: documents-hidden-data is an error when Documents is visible).
    @Test func theInitFileGivesTheSameFindingsAsNoConfiguration() throws {
        let work = try TemporaryTree("init-same")
        let sample = work.path("ChatApp.xcappdata")
        let made = try StocktakeProcess.runCommand(
            [
                "/usr/bin/env", "python3", SampleReportTests.repository + "/Samples/make_sample.py", "--version", "1",
                "--out", sample,
            ])
        try #require(made.status == 0, "\(made.stderr)")
        #expect(try StocktakeProcess.run(["init", work.path("init.yml")]).status == 0)
        let generated = try String(contentsOfFile: work.path("init.yml"), encoding: .utf8)
        let visible = generated.replacingOccurrences(of: "# documentsVisible: true", with: "documentsVisible: true")
        #expect(visible != generated)
        try work.write("visible-init.yml", string: visible)
        try work.write("visible-only.yml", string: "documentsVisible: true\n")
        try work.write("empty.yml", string: "")
        func audit(_ config: String, _ name: String) throws -> (status: Int32, findings: [String]) {
            let result = try StocktakeProcess.run([
                "audit", sample, "--output", work.path(name), "--format", "json", "--quiet", "--config",
                work.path(config),
            ])
            let found = try findings(in: work.path(name)).map {
                "\($0["severity"] ?? "") \($0["rule"] ?? "") \($0["path"] ?? "")"
            }
            return (result.status, found)
        }
        let plain = try audit("empty.yml", "plain")
        let initialised = try audit("init.yml", "init")
        #expect(initialised.status == plain.status && initialised.findings == plain.findings)
        let edited = try audit("visible-init.yml", "edited")
        let only = try audit("visible-only.yml", "only")
        #expect(edited.status == only.status && edited.findings == only.findings)
        #expect(
            only.status == 2 && only.findings.contains { $0.hasPrefix("error documents-hidden-data") },
            "visible Documents make it an error")
    }

    @Test func configurationMistakesExitSixtyFourAndBudgetsFail() throws {
        let tree = try Self.container()
        let work = try TemporaryTree("config")
        try work.write("bad.yml", string: "rules:\n  tmp-leftover: {}\n")
        let bad = try StocktakeProcess.run([
            "audit", tree.root, "--output", work.path("out"), "--config", work.path("bad.yml"),
        ])
        #expect(bad.status == 64)
        #expect(
            bad.stderr.contains("bad.yml:2: unknown rule id 'tmp-leftover'; did you mean 'tmp-leftovers'?"),
            "\(bad.stderr)")
        try work.write("budget.yml", string: "budgets:\n  locations: {documents: 1KB}\n")
        let over = try StocktakeProcess.run([
            "audit", tree.root, "--output", work.path("out"), "--config", work.path("budget.yml"), "--quiet",
        ])
        #expect(over.status == 2)
        let found = try findings(in: work.path("out"))
        #expect(found.contains { $0["rule"] as? String == "budget-exceeded" && $0["path"] as? String == "Documents" })
    }

    @Test func duplicatesAreOptInAndUnreadableCandidatesBecomeIssues() throws {
        let tree = try Self.container()
        let photo = [UInt8](repeating: 0xAB, count: 8_192)
        for copy in ["a", "b", "c"] { try tree.write("Library/Caches/\(copy)/photo.jpg", bytes: photo) }
        chmod(tree.path("Library/Caches/c/photo.jpg"), 0o000)
        defer { chmod(tree.path("Library/Caches/c/photo.jpg"), 0o644) }
        let work = try TemporaryTree("dups")
        chmod(work.root, 0o777)
        let off = try StocktakeProcess.run([
            "audit", tree.root, "--output", work.path("off"), "--format", "json", "--quiet",
        ])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(
            !(try findings(in: work.path("off"))).contains { $0["rule"] as? String == "duplicate-content" }, "opt-in")
        try work.write("on.yml", string: "rules:\n  duplicate-content: {}\n")
        let on = try StocktakeProcess.run(
            [
                "audit", tree.root, "--output", work.path("on"), "--format", "json", "--quiet", "--config",
                work.path("on.yml"),
            ],
            withoutFilePermissionOverride: true)
        #expect(on.status == 0, "\(on.stderr)")
        let found = try findings(in: work.path("on")).filter { $0["rule"] as? String == "duplicate-content" }
        #expect(found.map { $0["path"] as? String } == ["Library/Caches/a/photo.jpg"])
        let report =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: work.path("on/report.json"))))
            as? [String: Any]
        let issues = try #require(report?["issues"] as? [[String: Any]])
        #expect(issues.contains { $0["path"] as? String == "Library/Caches/c/photo.jpg" }, "\(issues)")
    }
}
