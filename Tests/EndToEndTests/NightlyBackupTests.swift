import Foundation
import TestSupport
import Testing

/// A device backup dropped into the nightly inbox: one run per app it holds (or per `--app`), each a report of the
/// app's domain; an encrypted backup fails alone.
@Suite struct NightlyBackupTests {
    static func backup(in inbox: String, name: String, encrypted: Bool = false) throws -> DeviceBackupFixture {
        let fixture = try DeviceBackupFixture([
            "records": [
                DeviceBackupFixture.record("AppDomain-com.example.one", "Documents/a.txt", content: "one"),
                DeviceBackupFixture.record(
                    "AppDomain-com.example.two", "Library/Preferences/com.example.two.plist", size: 200),
            ],
            "encrypted": encrypted,
        ])
        try FileManager.default.moveItem(atPath: fixture.path, toPath: inbox + "/" + name)
        return fixture
    }

    @Test func aBackupInTheInboxIsOneRunPerApp() throws {
        let tree = try TemporaryTree("nightly-backup")
        try tree.mkdir("inbox")
        let fixture = try Self.backup(in: tree.path("inbox"), name: "iPhone-backup")
        let result = try StocktakeProcess.run(
            ["nightly", tree.path("inbox"), tree.path("reports")], environment: ["SOURCE_DATE_EPOCH": "1795226400"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        for app in ["com.example.one", "com.example.two"] {
            let report = tree.path("reports/\(app)/latest/report.json")
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
            )
            #expect((document["container"] as? [String: Any])?["layout"] as? String == "deviceBackup")
            let files = try #require(document["files"] as? [[String: Any]])
            #expect(files.count == 1 && files.allSatisfy { $0["backup"] as? String == "included" })
        }
        withExtendedLifetime(fixture) {}

        // --app picks the apps; an app the backup lacks fails alone, named.
        let picked = try StocktakeProcess.run(
            [
                "nightly", tree.path("inbox"), tree.path("reports"), "--app", "com.example.two", "--app",
                "com.example.three",
            ],
            environment: ["SOURCE_DATE_EPOCH": "1795312800"])
        #expect(picked.status == 1)
        #expect(
            picked.stdout.contains("iPhone-backup:com.example.three")
                || picked.stderr.contains("iPhone-backup:com.example.three"))
        // two runs + latest
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.path("reports/com.example.two")).count == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.path("reports/com.example.one")).count == 2)
    }

    @Test func anEncryptedBackupFailsAlone() throws {
        let tree = try TemporaryTree("nightly-backup")
        try tree.mkdir("inbox")
        let fixture = try Self.backup(in: tree.path("inbox"), name: "locked-backup", encrypted: true)
        try tree.write("inbox/Notes/Documents/notes.txt", string: "hello\n")
        try tree.write(
            "inbox/Notes/Library/Preferences/com.example.notes.plist",
            string: "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>")
        let result = try StocktakeProcess.run(
            ["nightly", tree.path("inbox"), tree.path("reports")], environment: ["SOURCE_DATE_EPOCH": "1795226400"])
        #expect(result.status == 1)
        #expect((result.stdout + result.stderr).contains("encrypted device backup"))
        #expect(FileManager.default.fileExists(atPath: tree.path("reports/com.example.notes/latest/report.json")))
        withExtendedLifetime(fixture) {}
    }

    /// An unchanged backup is not audited again (it was every night), nor are the apps of one whose other app
    /// failed; one asked for other apps is.
    @Test func anUnchangedBackupIsAuditedOnce() throws {
        let tree = try TemporaryTree("nightly-backup-once")
        try tree.mkdir("inbox")
        let fixture = try Self.backup(in: tree.path("inbox"), name: "iPhone-backup")
        func night(_ epoch: String, _ options: [String] = []) throws -> ProcessResult {
            try StocktakeProcess.run(
                ["nightly", tree.path("inbox"), tree.path("reports")] + options,
                environment: ["SOURCE_DATE_EPOCH": epoch])
        }
        func runs(_ app: String) throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: tree.path("reports/\(app)")).filter {
                $0 != "latest" && !$0.hasPrefix(".")
            }.count
        }
        #expect(try night("1795226400").status == 0)
        let again = try night("1795312800")
        #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty, "\(again.stdout) \(again.stderr)")
        #expect(try runs("com.example.one") == 1 && runs("com.example.two") == 1)

        // Other apps asked for: audited again. An app the backup lacks fails, so the backup is not recorded as
        // audited and the next night tries that app again, but not the app that already has its run.
        #expect(try night("1795399200", ["--app", "com.example.one", "--app", "com.example.three"]).status == 1)
        #expect(try night("1795485600", ["--app", "com.example.one", "--app", "com.example.three"]).status == 1)
        #expect(try runs("com.example.one") == 2)
        withExtendedLifetime(fixture) {}
    }

    /// Issue 32: a backup's runs keep its record as a container's run does. A night killed after publishing (no
    /// history row, no audited record) is repaired without a second run or row; one killed half-way through the
    /// backup's apps audits only the apps left.
    @Test func aBackupRunInterruptedAfterPublishingIsRecoveredNotAuditedAgain() throws {
        let tree = try TemporaryTree("nightly-backup-killed")
        try tree.mkdir("inbox")
        let fixture = try Self.backup(in: tree.path("inbox"), name: "iPhone-backup")
        let reports = tree.path("reports")
        func night(_ epoch: String) throws -> ProcessResult {
            try StocktakeProcess.run(
                ["nightly", tree.path("inbox"), reports], environment: ["SOURCE_DATE_EPOCH": epoch])
        }
        func runs(_ app: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: reports + "/" + app).filter {
                $0 != "latest" && !$0.hasPrefix(".")
            }.sorted()
        }
        func rows(_ app: String) throws -> [String] {
            let result = try StocktakeProcess.run(["history", app, "--reports", reports, "--format", "json"])
            guard result.status == 0 else { return [] }
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return (document["runs"] as? [[String: Any]] ?? []).compactMap { $0["runID"] as? String }
        }
        func forget(_ app: String? = nil) throws {
            let filter = app.map { " WHERE bundle_identifier = '\($0)'" } ?? ""
            let script =
                "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.execute('PRAGMA foreign_keys = ON')\ndb.execute(\"DELETE FROM runs\(filter)\")\ndb.commit()\n"
            let deleted = try StocktakeProcess.runCommand([
                "/usr/bin/env", "python3", "-c", script, reports + "/history.sqlite",
            ])
            try #require(deleted.status == 0, "\(deleted.stderr)")
            try FileManager.default.removeItem(atPath: reports + "/.stocktake-audited.json")
        }
        let apps = ["com.example.one", "com.example.two"]
        #expect(try night("1795226400").status == 0)
        let first = try apps.map(runs)
        #expect(first.allSatisfy { $0.count == 1 })

        // Killed after publishing the last app's run: no rows, no record. Repaired, nothing audited again.
        try forget()
        let repaired = try night("1795312800")
        #expect(
            repaired.status == 0 && repaired.stdout.isEmpty && repaired.stderr.isEmpty,
            "\(repaired.stdout) \(repaired.stderr)")
        #expect(try apps.map(runs) == first)
        #expect(try apps.map(rows) == first)
        #expect(FileManager.default.fileExists(atPath: reports + "/.stocktake-audited.json"))

        // Killed half-way: the second app's run never made, the first's published but not recorded. Only the second runs.
        try FileManager.default.removeItem(atPath: reports + "/com.example.two/" + first[1][0])
        try FileManager.default.removeItem(atPath: reports + "/com.example.two/latest")
        try forget("com.example.two")
        #expect(try night("1795399200").status == 0)
        #expect(try runs("com.example.one") == first[0] && rows("com.example.one") == first[0])
        #expect(
            try runs("com.example.two") == ["2026-11-23T020000Z"] && rows("com.example.two") == ["2026-11-23T020000Z"])
        let quiet = try night("1795485600")
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout) \(quiet.stderr)")
        #expect(try apps.map { try runs($0).count } == [1, 1])
        withExtendedLifetime(fixture) {}
    }
}
