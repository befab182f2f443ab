import Foundation
import StocktakeHistory
import StocktakeNightly
import TestSupport
import Testing

/// Issue 10 through the real binary: hostile containers, reports, stores and surroundings. Every run has a
/// timeout, so a fault that hangs fails its test instead of hanging the suite.
@Suite struct HostileInputTests {
    static let timeout = 60.0

    /// A small bare container: Documents, Library, tmp.
    static func container() throws -> TemporaryTree {
        let tree = try TemporaryTree("hostile")
        try tree.write("Documents/notes.txt", string: "hello\n")
        try tree.write("Library/Preferences/com.example.hostile.plist", bytes: Array("bplist00".utf8))
        try tree.mkdir("tmp")
        return tree
    }

    static func run(_ arguments: [String], in folder: String? = nil) throws -> ProcessResult {
        let result = try StocktakeProcess.run(arguments, currentDirectory: folder, timeout: timeout)
        #expect(!result.timedOut, "stocktake \(arguments.joined(separator: " ")) hung: killed after \(timeout) s")
        return result
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// Runs Python's sqlite3 on a store: the test changes it as a hostile hand would.
    static func sqlite(_ path: String, _ statements: [String]) throws {
        let script =
            "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\nfor s in sys.argv[2:]: db.execute(s)\ndb.commit()\n"
        let result = try StocktakeProcess.runCommand(["/usr/bin/env", "python3", "-c", script, path] + statements)
        try #require(result.status == 0, "\(result.stderr)")
    }

    // MARK: F1

    /// An XML parser once printed "encoding error" lines for this 12-byte AppDataInfo.plist, so a nightly
    /// run that should be silent mailed cron.
    @Test func plistEncodingErrorsNeverReachStderr() throws {
        let tree = try TemporaryTree("xcappdata")
        try tree.write("App.xcappdata/AppData/Documents/notes.txt", string: "hello\n")
        try tree.mkdir("App.xcappdata/AppData/Library")
        try tree.write(
            "App.xcappdata/AppDataInfo.plist",
            bytes: [0xFF, 0xFE, 0x3C, 0x00, 0x70, 0x00, 0x00, 0xD8, 0x00, 0x00, 0x00, 0x00])
        let result = try Self.run([
            "audit", tree.path("App.xcappdata"), "--output", tree.path("out"), "--quiet", "--format", "json",
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let issues = try #require(Self.json(tree.path("out/report.json"))["issues"] as? [[String: Any]])
        let plist = try #require(issues.first { $0["path"] as? String == "AppDataInfo.plist" })
        #expect(plist["reason"] as? String == "malformedMetadata")
        #expect((plist["detail"] as? String)?.contains("encoding error") == true, "\(plist)")
    }

    // MARK: F2

    /// A report claiming Int64.min bytes made the delta wrap, so `--fail-on-growth 10%` passed.
    @Test func diffRefusesNegativeSizes() throws {
        let tree = try Self.container()
        let work = try TemporaryTree("diff")
        let audit = try Self.run(["audit", tree.root, "--output", work.path("new"), "--quiet", "--format", "json"])
        try #require(audit.status == 0, "\(audit.stderr)")
        var old = try Self.json(work.path("new/report.json"))
        var totals = try #require(old["totals"] as? [String: Any])
        var onDisk = try #require(totals["onDisk"] as? [String: Any])
        onDisk["allocatedBytes"] = Int64.min
        totals["onDisk"] = onDisk
        old["totals"] = totals
        try work.write(
            "old/report.json", bytes: Array(try JSONSerialization.data(withJSONObject: old, options: [.sortedKeys])))
        let result = try Self.run(["diff", work.path("old"), work.path("new"), "--fail-on-growth", "10%"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(work.path("old")), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "`totals.onDisk.allocatedBytes`: is -9223372036854775808; sizes and counts are never negative"),
            "\(result.stderr)")
    }

    // MARK: F4

    /// `ln -s C/Documents L; stocktake audit C --output L/out` wrote the reports into C/Documents/out.
    @Test func anOutputFolderThroughALinkIntoTheContainerIsRefused() throws {
        let tree = try Self.container()
        let work = try TemporaryTree("work")
        try work.symlink("L", to: tree.path("Documents"))
        let result = try Self.run(["audit", tree.root, "--output", "L/out"], in: work.root)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "refusing to write reports to \(tree.path("Documents/out")): it is inside the audited container"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tree.path("Documents/out")))
    }

    /// The nightly job's REPORTS through a link into an inbox container: that container is refused, and
    /// nothing of the audit is written into it.
    @Test func nightlyReportsInsideAContainerAreRefused() throws {
        let farm = try TemporaryTree("nightly")
        try farm.write("inbox/app/Documents/notes.txt", string: "hello\n")
        try farm.write("inbox/app/Library/Preferences/com.example.app.plist", bytes: Array("bplist00".utf8))
        try farm.mkdir("inbox/app/tmp")
        try farm.mkdir("inbox/app/Documents/reports")
        try farm.symlink("reports", to: farm.path("inbox/app/Documents/reports"))
        let result = try Self.run(["nightly", farm.path("inbox"), farm.path("reports")])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "app: refusing to audit it: the reports folder \(farm.path("reports")) is inside it"),
            "\(result.stderr)")
        let written = FileManager.default.enumerator(atPath: farm.path("inbox/app"))?.compactMap { $0 as? String } ?? []
        #expect(!written.contains { $0.hasSuffix("report.json") || $0.contains(".partial-") }, "\(written)")
    }

    // MARK: F5

    /// A store whose `runs` is a view over an endless query, written where the nightly job keeps it.
    static func hostileReports() throws -> TemporaryTree {
        let reports = try TemporaryTree("reports")
        let path = HistoryStore.path(inReports: reports.root)
        _ = try HistoryStore(path: path)
        let columns =
            ["id", "bundle_identifier", "run_id", "generated_at", "tool_version", "app_version", "status"]
            + ["on_disk", "documents_and_data", "purgeable"].flatMap {
                ["\($0)_files", "\($0)_apparent_bytes", "\($0)_allocated_bytes"]
            }
            + [
                "backed_up_bytes", "excluded_bytes", "unknown_backup_bytes", "error_findings", "warning_findings",
                "note_findings",
            ]
        try sqlite(
            path,
            [
                "DROP TABLE runs",
                "CREATE VIEW runs AS WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT "
                    + columns.map { "n AS \($0)" }.joined(separator: ", ") + " FROM forever WHERE n = 0",
            ])
        return reports
    }

    @Test func historyRefusesAStoreWhoseTableIsAView() throws {
        let reports = try Self.hostileReports()
        let result = try Self.run(["history", "com.example.chat", "--reports", reports.root])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "history store \(HistoryStore.path(inReports: reports.root)) is not a history store this stocktake can read: `runs` is a view, not a table"
            ), "\(result.stderr)")
    }

    /// The nightly job with that store: it says so, still audits, ends, and so releases its lock (the
    /// second night is not "locked", exit 75).
    @Test func nightlyRefusesAStoreWhoseTableIsAViewAndEnds() throws {
        let reports = try Self.hostileReports()
        let inbox = try TemporaryTree("inbox")
        try inbox.write("app/Documents/notes.txt", string: "hello\n")
        try inbox.write("app/Library/Preferences/com.example.app.plist", bytes: Array("bplist00".utf8))
        try inbox.mkdir("app/tmp")
        for night in 0..<2 {
            // A changed export each night: an unchanged one is not audited again.
            try inbox.write("app/Documents/night-\(night).txt", string: "hello\n")
            let result = try Self.run(["nightly", inbox.root, reports.root])
            #expect(result.status == 1, "night \(night): \(result.stderr)")
            #expect(
                result.stderr.contains("is not a history store this stocktake can read: `runs` is a view, not a table"),
                "\(result.stderr)")
        }
        let runs = try FileManager.default.contentsOfDirectory(atPath: reports.path("com.example.app")).filter {
            $0 != "latest"
        }
        #expect(runs.count == 2, "the audits went on: \(runs)")
    }

    // MARK: F6

    /// `kill -9` during a report write left `.report.json.tmp-XXXXXX` for good. A later run into the same
    /// folder removes its own kind of leftover that no live writer holds, whatever its time, and nothing else.
    @Test func leftoversOfAKilledRunAreRemovedAndNothingElse() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        let old = Date(timeIntervalSinceNow: -3600)
        let later = Date(timeIntervalSinceNow: 3600)
        func file(_ name: String, modified: Date) throws {
            try out.write(name, string: "partial")
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: out.path(name))
        }
        try file(".report.json.tmp-Ab12Cd", modified: old)  // a killed run's: removed
        try file(".report.sarif.tmp-XyZ789", modified: old)  // a killed run's, of a format not asked for: removed
        // dated after this run's start, but no writer holds it: removed
        try file(".report.json.tmp-Zz99Zz", modified: later)
        try file(".report.json.tmp-Ab12Cd7", modified: old)  // not mkstemp's shape: kept
        try file(".notes.txt.tmp-Ab12Cd", modified: old)  // not a report's: kept
        try file("notes.txt", modified: old)
        try out.mkdir(".report.html.tmp-Folder")  // not a regular file: kept
        try FileManager.default.setAttributes(
            [.modificationDate: old], ofItemAtPath: out.path(".report.html.tmp-Folder"))
        let result = try Self.run(["audit", tree.root, "--output", out.root, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.root).sorted() == [
                ".notes.txt.tmp-Ab12Cd", ".report.html.tmp-Folder", ".report.json.tmp-Ab12Cd7", "notes.txt",
                "report.html", "report.json",
            ])
    }

    // MARK: F7

    /// report.json as a FIFO hung `diff` forever; as a link to /dev/zero it read until memory ran out.
    @Test func diffRefusesFIFOsAndDevices() throws {
        let work = try TemporaryTree("diff")
        let tree = try Self.container()
        try #require(
            try Self.run(["audit", tree.root, "--output", work.path("new"), "--quiet", "--format", "json"]).status == 0)
        try work.mkfifo("fifo/report.json")
        try work.symlink("zero.json", to: "/dev/zero")
        let fifo = try Self.run(["diff", work.path("fifo"), work.path("new")])
        #expect(fifo.status == 1)
        #expect(
            fifo.stderr.contains("\(work.path("fifo/report.json")): it is a FIFO (named pipe), not a regular file"),
            "\(fifo.stderr)")
        let zero = try Self.run(["diff", work.path("zero.json"), work.path("new")])
        #expect(zero.status == 1)
        #expect(
            zero.stderr.contains("\(work.path("zero.json")): cannot read: it is a device, not a regular file"),
            "\(zero.stderr)")
    }

    /// The same for the files an audit reads besides the container: the baseline and the configuration.
    @Test func baselinesAndConfigurationsMustBeRegularFiles() throws {
        let tree = try Self.container()
        let work = try TemporaryTree("work")
        try work.mkfifo("baseline.json")
        try work.mkfifo("stocktake.yml")
        try work.symlink("zero.yml", to: "/dev/zero")
        let baseline = try Self.run([
            "audit", tree.root, "--output", work.path("out"), "--baseline", work.path("baseline.json"),
        ])
        #expect(baseline.status == 64)
        #expect(
            baseline.stderr.contains(
                "\(work.path("baseline.json")): cannot read the baseline: it is a FIFO (named pipe), not a regular file"
            ), "\(baseline.stderr)")
        // The default configuration: stocktake.yml in the current folder.
        let config = try Self.run(["audit", tree.root, "--output", work.path("out")], in: work.root)
        #expect(config.status == 64)
        #expect(
            config.stderr.contains(
                "stocktake.yml: cannot read the configuration file: it is a FIFO (named pipe), not a regular file"),
            "\(config.stderr)")
        let zero = try Self.run(["audit", tree.root, "--output", work.path("out"), "--config", work.path("zero.yml")])
        #expect(zero.status == 64)
        #expect(
            zero.stderr.contains("cannot read the configuration file: it is a device, not a regular file"),
            "\(zero.stderr)")
    }
}
