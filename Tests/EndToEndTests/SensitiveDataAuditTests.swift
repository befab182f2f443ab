import Foundation
import TestSupport
import Testing

/// Issue 20 through the real binary: a container holding what DVIA-v2, iGoat-Swift and OWASP's MASTG
/// playground document (a credentials plist in Documents, a PIN and a token in UserDefaults, a bearer token in
/// a log, a cloud key in a config file, a Core Data password column, an unencrypted Realm, a token in a web view's
/// local storage) gets a finding on
/// each of those files, the look-alikes get none, and no output, in any format, holds a planted secret.
@Suite struct SensitiveDataAuditTests {
    static let secrets = [
        "S3cretPass!", "48219173", "99117730", "Xk9fQ2LmZp7RtV4wYs1NqW8e", "abcdefghijklmnopqrstuvwxyz012345",
        "AKIAIOSFODNN7EXAMPLE",
        "hunter2hunter2", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c", "MIIEowIBAAKCAQEA7bq",
        "k3Y9k3Y9sessionValue77",
        "zyxwvutsrqponmlkjihgfedcba987654", "Pq8sT3vW6yZ1bC4eF7hJ0kM2", "Wm8pLq2RtY6uVn3sXk7aBd5c",
    ]

    static func container() throws -> TemporaryTree {
        let tree = try TemporaryTree("sensitive")
        let script = #"""
            import os, plistlib, sqlite3, sys
            root = sys.argv[1]
            def path(p):
                full = os.path.join(root, p); os.makedirs(os.path.dirname(full), exist_ok=True); return full
            jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
            plistlib.dump({"username": "alice", "password": "S3cretPass!", "pin": "48219173"}, open(path("Documents/credentials.plist"), "wb"))
            plistlib.dump({"userPIN": "99117730", "authToken": jwt, "refresh_token": "Xk9fQ2LmZp7RtV4wYs1NqW8e"},
                          open(path("Library/Preferences/com.example.app.plist"), "wb"), fmt=plistlib.FMT_BINARY)
            open(path("Library/Application Support/Logs/network.log"), "w").write(
                "GET /feed 200\nAuthorization: Bearer abcdefghijklmnopqrstuvwxyz012345\n")
            open(path("Library/Application Support/config.json"), "w").write(
                '{"region": "us-east-1", "aws_access_key_id": "AKIAIOSFODNN7EXAMPLE"}\n')
            open(path("Documents/key.pem"), "w").write("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq\n-----END RSA PRIVATE KEY-----\n")
            db = sqlite3.connect(path("Library/Application Support/Model.sqlite"))
            db.execute("CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, ZNAME TEXT, ZPASSWORD TEXT)")
            db.execute("INSERT INTO ZUSER VALUES (1, 'alice', 'hunter2hunter2')"); db.commit(); db.close()
            open(path("Library/Application Support/default.realm"), "wb").write(
                b"\0" * 16 + b"T-DB" + b"\0" * 40 + b"class_User\0username\0password\0")
            import struct
            def cookie(domain, name, value, flags):
                strings, offsets = b"", []
                for text in (domain, name, "/", value):
                    offsets.append(56 + len(strings)); strings += text.encode() + b"\0"
                return struct.pack("<IIII", 56 + len(strings), 0, flags, 0) + struct.pack("<IIII", *offsets) + b"\0" * 8 \
                    + struct.pack("<dd", 800000000.0, 799000000.0) + strings
            cookies = [cookie(".example.com", "sessionid", "k3Y9k3Y9sessionValue77", 5), cookie(".example.com", "_ga", "GA1.2.1234567890.1600000000", 0)]
            page = b"\0\0\1\0" + struct.pack("<I", len(cookies))
            offset = 8 + 4 * len(cookies) + 4
            for c in cookies: page += struct.pack("<I", offset); offset += len(c)
            page += b"\0" * 4 + b"".join(cookies)
            open(path("Library/Cookies/Cookies.binarycookies"), "wb").write(b"cook" + struct.pack(">II", 1, len(page)) + page + b"\0" * 8)
            cache = sqlite3.connect(path("Library/Caches/com.example.app/Cache.db"))
            cache.execute("CREATE TABLE cfurl_cache_response(entry_ID INTEGER PRIMARY KEY, version INTEGER, hash_value INTEGER, storage_policy INTEGER, request_key TEXT UNIQUE, time_stamp TIMESTAMP, partition TEXT)")
            cache.execute("CREATE TABLE cfurl_cache_blob_data(entry_ID INTEGER PRIMARY KEY, response_object BLOB, request_object BLOB, proto_props BLOB, user_info BLOB)")
            cache.execute("CREATE TABLE cfurl_cache_receiver_data(entry_ID INTEGER PRIMARY KEY, isDataOnFS INTEGER, receiver_data BLOB)")
            request = plistlib.dumps({"Array": ["https://api.example.com/login", 0, {"Authorization": "Bearer zyxwvutsrqponmlkjihgfedcba987654"}], "Version": 9}, fmt=plistlib.FMT_BINARY)
            cache.execute("INSERT INTO cfurl_cache_response VALUES (1, 1, 0, 0, 'https://api.example.com/login', '2024-01-01', NULL)")
            cache.execute("INSERT INTO cfurl_cache_blob_data VALUES (1, NULL, ?, NULL, NULL)", (request,))
            cache.execute("INSERT INTO cfurl_cache_receiver_data VALUES (1, 0, ?)", (b'{"access_token": "Pq8sT3vW6yZ1bC4eF7hJ0kM2"}',))
            cache.commit(); cache.close()
            web = sqlite3.connect(path("Library/WebKit/WebsiteData/LocalStorage/https_app.example.com_0.localstorage"))
            web.execute("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB NOT NULL ON CONFLICT FAIL)")
            for key, value in [("authToken", "Wm8pLq2RtY6uVn3sXk7aBd5c"), ("theme", "dark"), ("tokenCount", "3")]:
                web.execute("INSERT INTO ItemTable VALUES (?, ?)", (key, value.encode("utf-16-le")))
            web.commit(); web.close()
            # Look-alikes: none of these is a secret.
            plistlib.dump({"passwordRulesShown": True, "tokenCount": 3, "deviceToken": "a1" * 32,
                           "installID": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "API_KEY": "AIzaSyD-EXAMPLEEXAMPLEEXAMPLEabcdef12",
                           "lastPasswordChange": "2024-01-01"}, open(path("Library/Preferences/com.example.lookalike.plist"), "wb"))
            db = sqlite3.connect(path("Library/Application Support/Plain.sqlite"))
            db.execute("CREATE TABLE settings (key TEXT, value TEXT, password_hint TEXT)")
            db.execute("INSERT INTO settings VALUES ('theme', 'dark', 'the dog')"); db.commit(); db.close()
            open(path("Library/Application Support/Encrypted.sqlite"), "wb").write(os.urandom(4096))
            open(path("Library/Application Support/notes.txt"), "w").write("token count: 3\npassword: \nsee https://example.com\n")
            os.makedirs(path("tmp/x"), exist_ok=True)
            """#
        let result = try StocktakeProcess.runCommand(["python3", "-c", script, tree.path("")])
        try #require(result.status == 0, "\(result.stderr)")
        return tree
    }

    @Test func findsEachPlantedSecretAndNeverRepeatsOne() throws {
        let tree = try Self.container()
        let before = TreeSnapshot(tree.path(""))
        let out = try TemporaryTree("sensitive-out")
        let result = try StocktakeProcess.run(
            [
                "audit", tree.path(""), "--output", out.path("r"), "--format",
                "json,html,sarif,junit,markdown,github,ncdu", "--fail-on", "never",
            ],
            timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        #expect(TreeSnapshot(tree.path("")) == before)
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("r/report.json"))))
                as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let content = findings.filter {
            ($0["rule"] as? String).map { $0.hasPrefix("secret-") || $0 == "plaintext-credential-store" } ?? false
        }
        // Backed up or not: Library/Preferences is (with evidence unknown, a warning), Caches is not. WebKit's
        // website data is a place iOS makes and backs up whatever the export's attributes say: an error.
        let webStorage = "Library/WebKit/WebsiteData/LocalStorage/https_app.example.com_0.localstorage"
        #expect(
            content.allSatisfy {
                $0["severity"] as? String == ($0["path"] as? String == webStorage ? "error" : "warning")
            })
        let byPath = Dictionary(grouping: content) { $0["path"] as? String ?? "" }.mapValues {
            $0.compactMap { $0["rule"] as? String }
        }
        #expect(byPath["Documents/credentials.plist"] == ["secret-in-property-list", "secret-in-property-list"])
        #expect(byPath["Library/Preferences/com.example.app.plist"]?.count == 3)
        #expect(byPath["Library/Application Support/Logs/network.log"] == ["secret-in-text-file"])
        #expect(byPath["Library/Application Support/config.json"] == ["secret-in-text-file"])
        #expect(byPath["Documents/key.pem"] == ["secret-in-text-file"])
        #expect(byPath["Library/Application Support/Model.sqlite"] == ["plaintext-credential-store"])
        #expect(byPath["Library/Application Support/default.realm"] == ["plaintext-credential-store"])
        #expect(byPath["Library/Caches/com.example.app/Cache.db"] == ["secret-in-url-cache", "secret-in-url-cache"])
        let cookies = findings.filter { $0["rule"] as? String == "credential-cookie" }
        #expect(
            cookies.compactMap { $0["path"] as? String } == ["Library/Cookies/Cookies.binarycookies"],
            "the session cookie, not _ga")
        #expect(byPath[webStorage] == ["plaintext-credential-store"])
        #expect(byPath.count == 9, "look-alikes are not findings: \(byPath.keys.sorted())")

        // Every file written and everything printed, searched for every planted value.
        var outputs = [result.stdout, result.stderr]
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path("r")) {
            outputs.append(try String(contentsOfFile: out.path("r/" + name), encoding: .utf8))
        }
        for secret in Self.secrets {
            for (index, output) in outputs.enumerated() {
                #expect(!output.contains(secret), "output \(index) repeats \(secret)")
            }
        }
    }

    @Test func contentChecksCanBeTurnedOff() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("sensitive-off")
        let flag = try StocktakeProcess.run(
            ["audit", tree.path(""), "--output", out.path("a"), "--format", "json", "--quiet", "--no-content-checks"],
            timeout: 120)
        #expect(flag.status == 0 || flag.status == 2, "\(flag.stderr)")
        try "contentChecks: false\n".write(toFile: out.path("stocktake.yml"), atomically: true, encoding: .utf8)
        let config = try StocktakeProcess.run(
            [
                "audit", tree.path(""), "--output", out.path("b"), "--format", "json", "--quiet", "--config",
                out.path("stocktake.yml"),
            ], timeout: 120)
        #expect(config.status == 0 || config.status == 2, "\(config.stderr)")
        for folder in ["a", "b"] {
            let report = try #require(
                JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: out.path(folder + "/report.json")))) as? [String: Any])
            let rules = (report["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
            #expect(
                !rules.contains { $0.hasPrefix("secret-") || $0 == "plaintext-credential-store" }, "\(folder): \(rules)"
            )
        }
    }

    /// The join with backup prediction: once the export is known to keep attributes, a secret in a file iOS
    /// backs up is an error; one in Caches (never backed up) stays a warning.
    @Test func backedUpSecretsAreErrors() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("sensitive-backup")
        let result = try StocktakeProcess.run(
            [
                "audit", tree.path(""), "--output", out.path("r"), "--format", "json", "--quiet", "--xattrs-preserved",
                "--fail-on", "never",
            ], timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("r/report.json"))))
                as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        func severities(_ path: String) -> Set<String> {
            Set(
                findings.filter {
                    $0["path"] as? String == path && ($0["rule"] as? String)?.hasPrefix("secret-") == true
                }.compactMap { $0["severity"] as? String })
        }
        #expect(severities("Library/Preferences/com.example.app.plist") == ["error"])
        #expect(severities("Library/Caches/com.example.app/Cache.db") == ["warning"])
    }

    /// With `--backup`, the device backup's data protection classes join the findings: a secret in a file recorded
    /// with class None says so (MASTG-TEST-0299); one in a file of the default class does not.
    @Test func protectionClassNoneFromTheBackup() throws {
        let tree = try Self.container()
        let app = "com.example.app"
        let backup = try DeviceBackupFixture([
            "records": [
                DeviceBackupFixture.record("AppDomain-\(app)", "Documents", type: "d"),
                DeviceBackupFixture.record(
                    "AppDomain-\(app)", "Documents/credentials.plist", size: 200, protectionClass: 4),
                DeviceBackupFixture.record(
                    "AppDomain-\(app)", "Library/Preferences/\(app).plist", size: 300, protectionClass: 3),
            ]
        ])
        let out = try TemporaryTree("sensitive-protection")
        let result = try StocktakeProcess.run(
            [
                "audit", tree.path(""), "--bundle-id", app, "--backup", backup.path, "--output", out.path("r"),
                "--format", "json,sarif",
                "--quiet", "--fail-on", "never",
            ], timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("r/report.json"))))
                as? [String: Any])
        let findings = (report["findings"] as? [[String: Any]] ?? []).filter {
            ($0["rule"] as? String)?.hasPrefix("secret-") == true
        }
        func messages(_ path: String) -> [String] {
            findings.filter { $0["path"] as? String == path }.compactMap { $0["message"] as? String }
        }
        let unprotected = messages("Documents/credentials.plist")
        #expect(
            unprotected.count == 2 && unprotected.allSatisfy { $0.contains("data protection class as None") },
            "\(unprotected)")
        let defaultClass = messages("Library/Preferences/\(app).plist")
        #expect(
            defaultClass.count == 3 && !defaultClass.contains { $0.contains("protection class") }, "\(defaultClass)")
        #expect(
            findings.filter { $0["path"] as? String == "Documents/credentials.plist" }.allSatisfy {
                $0["severity"] as? String == "error"
            })
        let sarif = try String(contentsOfFile: out.path("r/report.sarif"), encoding: .utf8)
        #expect(sarif.contains("MASTG-TEST-0299"))
        for secret in Self.secrets { #expect(!sarif.contains(secret)) }
    }

    /// UserDefaults suites of an App Group (`UserDefaults(suiteName:)`) live in the group's container: with
    /// `--app-group`, its files are read too and a finding names the file as `<group id>/<path>`.
    @Test func appGroupSuitesAreRead() throws {
        let tree = try Self.container()
        let group = try TemporaryTree("sensitive-group")
        let id = "group.com.example.shared"
        let script = #"""
            import os, plistlib, sys
            root, id = sys.argv[1], sys.argv[2]
            os.makedirs(os.path.join(root, "Library/Preferences"))
            plistlib.dump({"MCMMetadataIdentifier": id, "MCMMetadataContentClass": 7},
                          open(os.path.join(root, ".com.apple.mobile_container_manager.metadata.plist"), "wb"), fmt=plistlib.FMT_BINARY)
            plistlib.dump({"sharedAccessToken": "Hq4Vt8Lm2Pz6Rx1Ns5Kw", "widgetTokenCount": 2},
                          open(os.path.join(root, "Library/Preferences", id + ".plist"), "wb"), fmt=plistlib.FMT_BINARY)
            """#
        let made = try StocktakeProcess.runCommand(["python3", "-c", script, group.path(""), id])
        try #require(made.status == 0, "\(made.stderr)")
        let before = TreeSnapshot(group.path(""))
        let out = try TemporaryTree("sensitive-group-out")
        let result = try StocktakeProcess.run(
            [
                "audit", tree.path(""), "--app-group", group.path(""), "--output", out.path("r"), "--format",
                "json,sarif,markdown",
                "--fail-on", "never",
            ], timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        #expect(TreeSnapshot(group.path("")) == before)
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("r/report.json"))))
                as? [String: Any])
        let findings = (report["findings"] as? [[String: Any]] ?? []).filter {
            ($0["path"] as? String)?.hasPrefix(id) == true
        }
        #expect(findings.compactMap { $0["path"] as? String } == ["\(id)/Library/Preferences/\(id).plist"])
        #expect(findings.first?["rule"] as? String == "secret-in-property-list")
        #expect((findings.first?["message"] as? String)?.contains("App Group container \(id)") == true)
        var outputs = [result.stdout, result.stderr]
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path("r")) {
            outputs.append(try String(contentsOfFile: out.path("r/" + name), encoding: .utf8))
        }
        #expect(!outputs.contains { $0.contains("Hq4Vt8Lm2Pz6Rx1Ns5Kw") })
    }

    /// A device backup as the input: its content files are read under their real names, and each file's data
    /// protection class comes from its own record.
    @Test func deviceBackupContentIsRead() throws {
        let app = "com.example.app"
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>password</key><string>Vb7Nm2Qx9Lk4</string><key>passwordRulesShown</key><true/></dict></plist>
            """
        let backup = try DeviceBackupFixture([
            "records": [
                DeviceBackupFixture.record("AppDomain-\(app)", "Documents", type: "d"),
                DeviceBackupFixture.record(
                    "AppDomain-\(app)", "Documents/account.plist", content: plist, protectionClass: 4),
                DeviceBackupFixture.record(
                    "AppDomain-\(app)", "Library/Logs/api.log",
                    content: "Authorization: Bearer Tz5Yc8Wq3Er6Ui1Op4As7Df0\n"),
                DeviceBackupFixture.record(
                    "AppDomain-\(app)", "Library/Preferences/\(app).plist",
                    content: plist.replacingOccurrences(
                        of: "<key>password</key><string>Vb7Nm2Qx9Lk4</string>", with: "")),
            ]
        ])
        let before = TreeSnapshot(backup.path)
        let out = try TemporaryTree("sensitive-backup-input")
        let result = try StocktakeProcess.run(
            [
                "audit", backup.path, "--app", app, "--output", out.path("r"), "--format", "json,sarif,html",
                "--fail-on", "never",
            ], timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        #expect(TreeSnapshot(backup.path) == before)
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out.path("r/report.json"))))
                as? [String: Any])
        let findings = (report["findings"] as? [[String: Any]] ?? []).filter {
            ($0["rule"] as? String)?.hasPrefix("secret-") == true
        }
        let byPath = Dictionary(grouping: findings) { $0["path"] as? String ?? "" }
        #expect(byPath.keys.sorted() == ["Documents/account.plist", "Library/Logs/api.log"], "\(byPath.keys.sorted())")
        #expect(findings.allSatisfy { $0["severity"] as? String == "error" }, "a backup holds every file it lists")
        #expect(
            (byPath["Documents/account.plist"]?.first?["message"] as? String)?.contains("protection class as None")
                == true)
        #expect((byPath["Library/Logs/api.log"]?.first?["message"] as? String)?.contains("protection class") == false)
        var outputs = [result.stdout, result.stderr]
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path("r")) {
            outputs.append(try String(contentsOfFile: out.path("r/" + name), encoding: .utf8))
        }
        #expect(!outputs.contains { $0.contains("Vb7Nm2Qx9Lk4") || $0.contains("Tz5Yc8Wq3Er6Ui1Op4As7Df0") })
    }

    /// A zip or tar export is read for content as its folder is: the same findings, and the archive untouched.
    @Test(.enabled(if: LibArchiveProbe.enabled, LibArchiveProbe.hint), arguments: ["zip", "tar.gz"])
    func archivesAreReadLikeTheirFolder(_ format: String) throws {
        let tree = try Self.container()
        let out = try TemporaryTree("sensitive-archive")
        let archive = out.path("export." + format)
        let pack = #"""
            import os, sys, tarfile, zipfile
            root, archive = sys.argv[1], sys.argv[2]
            if archive.endswith(".zip"):
                with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
                    for folder, _, files in os.walk(root):
                        for name in files:
                            full = os.path.join(folder, name); z.write(full, os.path.relpath(full, root))
            else:
                with tarfile.open(archive, "w:gz") as t:
                    for name in sorted(os.listdir(root)): t.add(os.path.join(root, name), name)
            """#
        let packed = try StocktakeProcess.runCommand(["python3", "-c", pack, tree.path(""), archive])
        try #require(packed.status == 0, "\(packed.stderr)")
        func contentFindings(_ input: String, _ folder: String) throws -> [String] {
            let result = try StocktakeProcess.run(
                ["audit", input, "--output", out.path(folder), "--format", "json,sarif", "--fail-on", "never"],
                timeout: 120)
            try #require(result.status == 0, "\(result.stderr)")
            #expect(!Self.secrets.contains { result.stdout.contains($0) || result.stderr.contains($0) })
            for name in try FileManager.default.contentsOfDirectory(atPath: out.path(folder)) {
                let text = try String(contentsOfFile: out.path(folder + "/" + name), encoding: .utf8)
                #expect(!Self.secrets.contains { text.contains($0) }, "\(name) repeats a secret")
            }
            let report = try #require(
                JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: out.path(folder + "/report.json")))) as? [String: Any])
            return (report["findings"] as? [[String: Any]] ?? []).compactMap { finding in
                guard let rule = finding["rule"] as? String,
                    rule.hasPrefix("secret-") || rule == "plaintext-credential-store" || rule == "credential-cookie"
                else { return nil }
                return "\(rule) \(finding["path"] as? String ?? "") \(finding["message"] as? String ?? "")"
            }.sorted()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: archive))
        let fromArchive = try contentFindings(archive, "a")
        let fromFolder = try contentFindings(tree.path(""), "f")
        #expect(fromArchive.count >= 12)
        #expect(fromArchive == fromFolder)
        #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == before)
    }
}
