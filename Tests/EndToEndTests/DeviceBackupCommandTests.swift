import Foundation
import StocktakeReport
import TestSupport
import Testing

/// The binary on generated device backups (the real format: Manifest.db with NSKeyedArchiver MBFile rows, content
/// files by fileID, Manifest/Info/Status plists): `apps`, `audit BACKUP --app`, `audit CONTAINER --backup`, and
/// every refusal. The truth is what the generator wrote. With `realApp: true` one more app comes from a real app
/// of a real iOS 14.3 backup's listing, read from the real-world corpus (those tests skip without it, fail in CI).
@Suite struct DeviceBackupCommandTests {
    static let realApp = "ch.icoaching.typewise"
    static let app = "com.example.notes"

    static func backup(wal: Bool = false, realApp: Bool = false) throws -> DeviceBackupFixture {
        func record(
            _ domain: String, _ path: String, _ type: String, _ size: Int?, _ content: String?, _ target: String?
        ) -> [String: Any] {
            DeviceBackupFixture.record(domain, path, type: type, size: size, content: content, target: target)
        }
        // The real app's App Group and keyboard extension, made up beside its real records.
        let companions = [
            record("AppDomainGroup-group.\(Self.realApp)", "Library/Preferences/group.plist", "f", 600, nil, nil),
            record(
                "AppDomainPlugin-\(Self.realApp).keyboard", "Library/Preferences/keyboard.plist", "f", 420, nil, nil),
        ]
        var spec: [String: Any] = [
            "records": (realApp ? companions : []) + [
                record("AppDomain-\(app)", "Documents", "d", nil, nil, nil),
                record("AppDomain-\(app)", "Documents/note.txt", "f", nil, "hello notes", nil),
                record("AppDomain-\(app)", "Documents/big.bin", "f", 10_000, nil, nil),
                record("AppDomain-\(app)", "Library/Preferences/\(app).plist", "f", 321, nil, nil),
                record("AppDomain-\(app)", "Library/Application Support/only-in-backup.db", "f", 70, nil, nil),
                record("HomeDomain", "Library/Preferences/com.apple.springboard.plist", "f", 5000, nil, nil),
            ],
            "wal": wal,
        ]
        if realApp { spec["realworld"] = try DeviceBackupFixture.realApps([Self.realApp]) }
        return try DeviceBackupFixture(spec)
    }

    static let repository = Repository.root

    /// Valid against Reports/report.schema.json, keys sorted. Without python3's jsonschema (outside CI) the check
    /// is recorded as a known issue, so the run shows what it did not check instead of passing in silence.
    func checkSchema(_ report: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try ExternalTools.checkReport(
            report, schema: Self.repository + "/Reports/report.schema.json", sourceLocation: sourceLocation)
    }

    func json(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test(.enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func appsListsExactlyTheAppDomainsWithTheirCountsAndBytes() throws {
        let backup = try Self.backup(realApp: true)
        let result = try StocktakeProcess.run(["apps", backup.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let apps = try #require(listing["apps"] as? [[String: Any]])
        #expect(apps.map { $0["bundleIdentifier"] as? String } == [Self.realApp, Self.app])
        for app in apps {
            let id = try #require(app["bundleIdentifier"] as? String)
            let truth = try #require(backup.truth["AppDomain-\(id)"])
            #expect(app["files"] as? Int == truth.files, "\(id)")
            #expect((app["apparentBytes"] as? NSNumber)?.int64Value == truth.bytes, "\(id)")
            // The truth counts the domain's root record among the folders; the listing does not.
            #expect(app["directories"] as? Int == truth.directories - 1, "\(id)")
        }
        // The real app: 4 files, 5,084 bytes in the real backup's manifest (Cookies, Preferences, WebKit, and
        // WebKit's IndexedDB link, the one symlink), 12 folders.
        #expect(apps[0]["files"] as? Int == 4 && apps[0]["apparentBytes"] as? Int == 5_084)
        #expect(apps[0]["symlinks"] as? Int == 1 && apps[0]["directories"] as? Int == 12)
        // report.json's words: allocated bytes estimated in whole 4 KiB blocks (the link and empty files aside).
        #expect(
            apps[0]["allocatedBytesEstimated"] as? Bool == true && (apps[0]["allocatedBytes"] as? Int ?? 0) % 4096 == 0)
        #expect(apps[0]["bytes"] == nil && apps[0]["allocatedBytesEstimate"] == nil)
        let groups = try #require(apps[0]["appGroups"] as? [[String: Any]])
        let plugins = try #require(apps[0]["plugins"] as? [[String: Any]])
        #expect(groups.map { $0["domain"] as? String } == ["AppDomainGroup-group.\(Self.realApp)"])
        #expect(plugins.map { $0["domain"] as? String } == ["AppDomainPlugin-\(Self.realApp).keyboard"])
        #expect(groups.first?["apparentBytes"] as? Int == 600 && plugins.first?["apparentBytes"] as? Int == 420)
        // A listed domain speaks report.json's words: its keys are a report's backup domain's, and the estimate flag.
        let reportWords = Set(
            ReportKeys.BackupDomain.allCases.map(\.rawValue) + [
                ReportKeys.DeviceBackup.allocatedBytesEstimated.rawValue
            ])
        #expect(
            Set(groups.flatMap(\.keys)).subtracting(reportWords).isEmpty && Set(plugins.flatMap(\.keys)) == reportWords)

        let text = try StocktakeProcess.run(["apps", backup.path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("2 apps in \(backup.path) (iOS 14.3"))
        #expect(text.stdout.contains("\(Self.app)      4 files, 1 folder, 10402 bytes"))
        #expect(text.stdout.contains("\(Self.realApp)  4 files (1 symlink), 12 folders, 5084 bytes"))
    }

    @Test(.enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func auditOfABackupReportsExactlyTheManifestsFilesAllIncluded() throws {
        let backup = try Self.backup(realApp: true)
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run(["audit", backup.path, "--app", Self.realApp, "--output", out.root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(deviceBackup)"))
        #expect(result.stdout.contains("In backup:  \(backup.path) (iOS 14.3): 4 files"))
        let report = try json(out.path("report.json"))
        #expect((report["container"] as? [String: Any])?["layout"] as? String == "deviceBackup")
        let files = try #require(report["files"] as? [[String: Any]])
        // Exactly the real app's non-directory rows of the listing, with their manifest sizes.
        #expect(
            files.map { $0["path"] as? String } == [
                "Library/Cookies/Cookies.binarycookies", "Library/Preferences/ch.icoaching.typewise.plist",
                "Library/WebKit/WebsiteData/IndexedDB/v0",
                "Library/WebKit/WebsiteData/ResourceLoadStatistics/observations.db",
            ])
        #expect(files.map { $0["apparentBytes"] as? Int } == [95, 893, 0, 4096])
        #expect(
            files.allSatisfy {
                $0["backup"] as? String == "included" && $0["backupEvidence"] as? String == "deviceBackup"
            })
        #expect(
            files[2]["symlinkTarget"] as? String
                == "/var/mobile/Containers/Data/Application/2D4D1445-FCB4-47F6-A789-941C77FBE73B/Library/WebKit/WebsiteData/IndexedDB"
        )
        let directories = try #require(report["directories"] as? [[String: Any]])
        #expect(directories.allSatisfy { $0["backup"] as? String == "included" })
        let totals = try #require(report["totals"] as? [String: Any])
        let included = try #require((totals["backup"] as? [String: Any])?["included"] as? [String: Any])
        let truth = try #require(backup.truth["AppDomain-\(Self.realApp)"])
        #expect(
            included["files"] as? Int == truth.files
                && (included["apparentBytes"] as? NSNumber)?.int64Value == truth.bytes)
        // 95, 893 and 4096 bytes: one 4 KiB block each, estimated.
        #expect(included["allocatedBytes"] as? Int == 3 * 4096)
        let device = try #require(report["deviceBackup"] as? [String: Any])
        #expect(device["allocatedBytesEstimated"] as? Bool == true)
        #expect(device["role"] as? String == "input")
        #expect((device["companions"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["appGroup", "plugin"])
        let groups = try #require(report["appGroups"] as? [[String: Any]])
        #expect(groups.map { $0["identifier"] as? String } == ["group.\(Self.realApp)", "\(Self.realApp).keyboard"])
        #expect((report["evidence"] as? [String: Any])?["deviceBackup"] as? Bool == true)
        try checkSchema(out.path("report.json"))
        let html = try String(contentsOfFile: out.path("report.html"), encoding: .utf8)
        #expect(
            html.contains("<h3>Device backup</h3>") && html.contains("estimated: each file rounded up to 4 KiB blocks"))
    }

    @Test(
        "every app domain of the real iOS 14.3 backup's listing: apps lists each with the listing's counts and bytes",
        .enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func theRealBackupsAppsAreListedExactly() throws {
        let backup = try DeviceBackupFixture(["realworld": try DeviceBackupFixture.realApps(nil)])
        let result = try StocktakeProcess.run(["apps", backup.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let apps = try #require(listing["apps"] as? [[String: Any]])
        #expect(apps.count == 107)
        let listed = Dictionary(
            uniqueKeysWithValues: apps.map { ("AppDomain-" + ($0["bundleIdentifier"] as? String ?? ""), $0) })
        #expect(Set(listed.keys) == Set(backup.truth.keys))
        for (domain, truth) in backup.truth {
            #expect(listed[domain]?["files"] as? Int == truth.files, "\(domain)")
            #expect((listed[domain]?["apparentBytes"] as? NSNumber)?.int64Value == truth.bytes, "\(domain)")
            #expect(listed[domain]?["directories"] as? Int == truth.directories - 1, "\(domain)")
        }
        // And the audit of the largest of them reports the same totals, every file included.
        let largest = try #require(apps.max { ($0["apparentBytes"] as? Int ?? 0) < ($1["apparentBytes"] as? Int ?? 0) })
        let id = try #require(largest["bundleIdentifier"] as? String)
        let out = try TemporaryTree("out")
        let audit = try StocktakeProcess.run([
            "audit", backup.path, "--app", id, "--output", out.root, "--format", "json",
        ])
        #expect(audit.status == 0, "\(audit.stderr)")
        let report = try json(out.path("report.json"))
        let included = try #require(
            ((report["totals"] as? [String: Any])?["backup"] as? [String: Any])?["included"] as? [String: Any])
        #expect(
            included["files"] as? Int == largest["files"] as? Int
                && included["apparentBytes"] as? Int == largest["apparentBytes"] as? Int)
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.allSatisfy { $0["backup"] as? String == "included" })
    }

    @Test("ids come from the backup: a terminal escape or a line break in one never reaches the terminal raw")
    func hostileIdsAreShownVisibly() throws {
        let hostile = "evil\u{1B}[2J\nstocktake: fine"
        let backup = try DeviceBackupFixture([
            "records": [DeviceBackupFixture.record("AppDomain-\(hostile)", "Documents/a.txt", content: "a")]
        ])
        let text = try StocktakeProcess.run(["apps", backup.path])
        #expect(text.status == 0)
        #expect(!text.stdout.contains("\u{1B}") && text.stdout.split(separator: "\n").count == 2)
        let json = try StocktakeProcess.run(["apps", backup.path, "--format", "json"])
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((listing["apps"] as? [[String: Any]])?.first?["bundleIdentifier"] as? String == hostile)
        let missing = try StocktakeProcess.run(["audit", backup.path, "--app", "evil"])
        #expect(missing.status == 1 && !missing.stderr.contains("\u{1B}"))
    }

    @Test func contentFilesGiveKinds() throws {
        let backup = try Self.backup()
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run([
            "audit", backup.path, "--app", Self.app, "--output", out.root, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try #require(try json(out.path("report.json"))["files"] as? [[String: Any]])
        let kinds = Dictionary(
            uniqueKeysWithValues: files.map { ($0["path"] as? String ?? "", $0["kind"] as? String ?? "") })
        #expect(kinds["Documents/note.txt"] == "text")
    }

    @Test func backupGivesAContainerExportItsStates() throws {
        let backup = try Self.backup()
        let tree = try TemporaryTree("export")
        try tree.write("Documents/note.txt", string: "hello notes")
        try tree.write("Documents/big.bin", bytes: [UInt8](repeating: 1, count: 10_000))
        try tree.write("Documents/draft-after-backup.txt", string: "new")
        try tree.write("Library/Preferences/\(Self.app).plist", bytes: Array("bplist00".utf8))
        try tree.write("Library/Application Support/thumbs/1.jpg", bytes: [0xFF, 0xD8, 0xFF, 0xE0])
        try tree.write("Library/Caches/feed.json", string: "{}")
        try tree.write("tmp/upload.part", string: "x")
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run([
            "audit", tree.root, "--bundle-id", Self.app, "--backup", backup.path, "--output", out.root,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("In backup:  \(backup.path) (iOS 14.3): 4 files"))
        #expect(result.stdout.contains("1 of its files is not in the export"))
        let report = try json(out.path("report.json"))
        let files = try #require(report["files"] as? [[String: Any]])
        let states = Dictionary(
            uniqueKeysWithValues: files.map { ($0["path"] as? String ?? "", $0["backup"] as? String ?? "") })
        #expect(
            states == [
                "Documents/note.txt": "included", "Documents/big.bin": "included",
                "Library/Preferences/\(Self.app).plist": "included",
                "Documents/draft-after-backup.txt": "excluded", "Library/Application Support/thumbs/1.jpg": "excluded",
                "Library/Caches/feed.json": "excludedBySystem", "tmp/upload.part": "excludedBySystem",
            ])
        #expect(files.allSatisfy { $0["backupEvidence"] as? String == "deviceBackup" })
        let device = try #require(report["deviceBackup"] as? [String: Any])
        #expect(device["role"] as? String == "evidence" && device["notInExport"] as? Int == 1)
        #expect((device["app"] as? [String: Any])?["apparentBytes"] as? Int == 11 + 10_000 + 321 + 70)
        // The export carries no attributes: nothing predicted "included", so nothing disagrees.
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(!findings.contains { $0["rule"] as? String == "backup-disagreement" })
        try checkSchema(out.path("report.json"))
    }

    @Test func backupDisagreementsAreFindings() throws {
        let backup = try Self.backup()
        let tree = try TemporaryTree("export")
        // iOS makes Cookies and real backups hold it: predicted included although the export carries no attributes.
        try tree.write("Documents/note.txt", string: "hello notes")
        try tree.write("Library/Cookies/Cookies.binarycookies", bytes: Array("cook".utf8))
        try tree.write("Library/Preferences/\(Self.app).plist", bytes: Array("bplist00".utf8))
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run([
            "audit", tree.root, "--bundle-id", Self.app, "--backup", backup.path, "--output", out.root, "--format",
            "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let findings = try #require(try json(out.path("report.json"))["findings"] as? [[String: Any]])
        let disagreements = findings.filter { $0["rule"] as? String == "backup-disagreement" }
        #expect(disagreements.map { $0["path"] as? String } == ["Library/Cookies"])
        let rules = try StocktakeProcess.run(["rules"])
        #expect(rules.stdout.contains("backup-disagreement"))
    }

    @Test("an export carrying attributes: a flagged file the backup holds, and an unflagged one it lacks, disagree")
    func flaggedFilesInTheBackupDisagree() throws {
        let backup = try Self.backup()
        let tree = try TemporaryTree("export")
        try tree.write("Documents/note.txt", string: "hello notes")
        try tree.write("Documents/big.bin", bytes: [UInt8](repeating: 1, count: 10_000))
        try tree.write("Documents/new.txt", string: "made after the backup")
        try tree.write("Library/Preferences/\(Self.app).plist", bytes: Array("bplist00".utf8))
        try tree.excludeFromBackup("Documents/big.bin")
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run([
            "audit", tree.root, "--bundle-id", Self.app, "--backup", backup.path, "--output", out.root, "--format",
            "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(out.path("report.json"))
        let files = try #require(report["files"] as? [[String: Any]])
        let states = Dictionary(
            uniqueKeysWithValues: files.map { ($0["path"] as? String ?? "", $0["backup"] as? String ?? "") })
        #expect(states["Documents/big.bin"] == "included" && states["Documents/new.txt"] == "excluded")
        let findings = try #require(report["findings"] as? [[String: Any]])
        let disagreements = findings.filter { $0["rule"] as? String == "backup-disagreement" }
        #expect(disagreements.map { $0["path"] as? String } == ["Documents/big.bin", "Documents/new.txt"])
        #expect((disagreements.first?["message"] as? String)?.contains("is in the device backup") == true)
        #expect((disagreements.last?["message"] as? String)?.contains("is missing from the device backup") == true)
    }

    @Test func theContainersAppMustBeInTheBackup() throws {
        let backup = try Self.backup()
        let tree = try TemporaryTree("export")
        try tree.write("Documents/a.txt", string: "a")
        try tree.write("Library/Preferences/com.example.note.plist", bytes: Array("bplist00".utf8))
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run([
            "audit", tree.root, "--bundle-id", "com.example.note", "--backup", backup.path, "--output", out.root,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("holds no app com.example.note"))
        #expect(result.stderr.contains("nearest: \(Self.app)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.root).isEmpty)
    }

    @Test func refusalsExitOneWithTheReason() throws {
        let encrypted = try DeviceBackupFixture([
            "records": [DeviceBackupFixture.record("AppDomain-a.b", "x", size: 1)], "encrypted": true,
        ])
        for arguments in [["apps", encrypted.path], ["audit", encrypted.path, "--app", "a.b"]] {
            let result = try StocktakeProcess.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("is an encrypted device backup"), "\(result.stderr)")
            #expect(result.stderr.contains("Make an unencrypted backup"))
        }
        let scrambled = try DeviceBackupFixture(["records": [DeviceBackupFixture.record("AppDomain-a.b", "x", size: 1)]]
        )
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) }).write(
            to: URL(fileURLWithPath: scrambled.path + "/Manifest.db"))
        let notSQLite = try StocktakeProcess.run(["apps", scrambled.path])
        #expect(
            notSQLite.status == 1 && notSQLite.stderr.contains("encrypted")
                && notSQLite.stderr.contains("not an SQLite database"))

        let old = try TemporaryTree("mbdb")
        try old.write("Manifest.mbdb", bytes: [0x6D, 0x62, 0x64, 0x62, 5, 0])
        try old.write(
            "Manifest.plist", bytes: Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8))
        let mbdb = try StocktakeProcess.run(["audit", old.root, "--app", "a.b"])
        #expect(mbdb.status == 1 && mbdb.stderr.contains("iOS 9-or-older") && mbdb.stderr.contains("not supported yet"))

        let incomplete = try TemporaryTree("nomanifest")
        try incomplete.write(
            "Manifest.plist", bytes: Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>".utf8))
        let missing = try StocktakeProcess.run(["apps", incomplete.root])
        #expect(missing.status == 1 && missing.stderr.contains("has no Manifest.db"))

        let damaged = try DeviceBackupFixture(["records": [DeviceBackupFixture.record("AppDomain-a.b", "x", size: 1)]])
        let database = URL(fileURLWithPath: damaged.path + "/Manifest.db")
        let original = try Data(contentsOf: database)
        try (original.prefix(100) + Data(repeating: 0xEE, count: original.count - 100)).write(to: database)
        let corrupt = try StocktakeProcess.run(["audit", damaged.path, "--app", "a.b"])
        #expect(corrupt.status == 1 && corrupt.stderr.contains("cannot read the device backup"), "\(corrupt.stderr)")

        let backup = try Self.backup()
        let noApp = try StocktakeProcess.run(["audit", backup.path])
        #expect(noApp.status == 1 && noApp.stderr.contains("choose one with --app ID"))
        let both = try StocktakeProcess.run(["audit", backup.path, "--backup", backup.path])
        #expect(both.status == 1 && both.stderr.contains("the input is itself a device backup"))
        let appForAContainer = try StocktakeProcess.run(["audit", incomplete.root + "/..", "--app", "a.b"])
        #expect(appForAContainer.status == 1 && appForAContainer.stderr.contains("is not a device backup"))
        let notBackup = try StocktakeProcess.run(["apps", old.path("nothing-here")])
        #expect(notBackup.status == 1 && notBackup.stderr.contains("is not a device backup"))
    }

    @Test func maxDepthBoundsABackupsDomainAsItBoundsAWalk() throws {
        let backup = try DeviceBackupFixture([
            "records": [DeviceBackupFixture.record("AppDomain-a.b", "one/two/three/four/deep.txt", size: 5)]
        ])
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run([
            "audit", backup.path, "--app", "a.b", "--max-depth", "1", "--output", out.root,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(out.path("report.json"))
        let paths = (report["directories"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(paths == ["", "one", "one/two"])
        #expect((report["files"] as? [[String: Any]])?.isEmpty == true)
        let issues = try #require(report["issues"] as? [[String: Any]])
        #expect(issues.map { $0["reason"] as? String } == ["tooDeep"])
        #expect(issues.first?["path"] as? String == "one/two")
    }

    @Test func aHostileManifestIsRefusedWithOneLineExitOne() throws {
        let backup = try DeviceBackupFixture(["records": [DeviceBackupFixture.record("AppDomain-a.b", "x", size: 1)]])
        let script =
            "import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); d.execute('CREATE TRIGGER t AFTER DELETE ON Files BEGIN SELECT 1; END'); d.commit()"
        let altered = try StocktakeProcess.runCommand(["python3", "-c", script, backup.path + "/Manifest.db"])
        #expect(altered.status == 0, "\(altered.stderr)")
        for arguments in [["apps", backup.path], ["audit", backup.path, "--app", "a.b"]] {
            let result = try StocktakeProcess.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(
                result.stderr.contains("refusing the device backup") && result.stderr.contains("has a trigger `t`"),
                "\(result.stderr)")
        }
    }

    @Test("the backup is never written: no -shm, no checkpoint of its -wal, no journal, times unchanged")
    func theBackupFolderIsLeftAsItWas() throws {
        let backup = try Self.backup(wal: true)
        #expect(FileManager.default.fileExists(atPath: backup.path + "/Manifest.db-wal"))
        let before = TreeSnapshot(backup.path)
        let out = try TemporaryTree("out")
        #expect(try StocktakeProcess.run(["apps", backup.path]).status == 0)
        let audit = try StocktakeProcess.run(["audit", backup.path, "--app", Self.app, "--output", out.root])
        #expect(audit.status == 0, "\(audit.stderr)")
        let tree = try TemporaryTree("export")
        try tree.write("Documents/note.txt", string: "hello notes")
        try tree.write("Library/Preferences/\(Self.app).plist", bytes: Array("bplist00".utf8))
        let evidence = try StocktakeProcess.run([
            "audit", tree.root, "--bundle-id", Self.app, "--backup", backup.path, "--output", out.path("second"),
        ])
        #expect(evidence.status == 0, "\(evidence.stderr)")
        #expect(TreeSnapshot(backup.path) == before)
    }
}
