import Foundation
import TestSupport
import Testing

/// The sample container's reports, compared byte for byte with `Reports/Example/`, and the JSON checked
/// against the schema. `Reports/Example` is what the README's command gives on a fresh clone: the committed
/// sample with every file dated at checkout (git keeps no modification times), audited with a fixed clock, the
/// tool version replaced by a placeholder. The other tests regenerate the sample, whose generator sets the times.
@Suite(.serialized) struct SampleReportTests {
    static let repository = Repository.root
    static let fixedTime = "1795226400"  // 2026-11-21T02:00:00Z

    /// Allocated sizes in the example are those of a file system with 4 KiB blocks whose folders take one block
    /// each (ext4, the CI machines). APFS also has 4 KiB blocks, but its folders take none (st_blocks 0, st_size
    /// 64 and up), so the example's folder figures (94 folders × 4096 bytes) do not hold on a Mac.
    static let fileSystemMatchesExample: Bool = {
        guard let tree = try? TemporaryTree("blocks"), (try? tree.write("one", string: "x")) != nil,
            (try? tree.mkdir("folder")) != nil
        else { return false }
        var file = stat()
        var folder = stat()
        return stat(tree.path("one"), &file) == 0 && file.st_blocks == 8
            && stat(tree.path("folder"), &folder) == 0 && folder.st_blocks == 8 && folder.st_size == 4096
    }()

    /// Elsewhere the tests comparing sizes with the example skip, except under CI: CI's machines are ext4, and a
    /// CI whose temporary folder is not fails saying so instead of passing without the comparison.
    static let exampleFileSystemHint: Comment =
        "allocated sizes in Reports/Example assume 4 KiB blocks and 4 KiB folders (ext4); CI=true turns this skip into a failure"

    static func requireExampleFileSystem(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(
            fileSystemMatchesExample,
            "the temporary folder's file system does not give a 1-byte file and a folder 4 KiB each (ext4 does): Reports/Example's sizes cannot match",
            sourceLocation: sourceLocation)
    }

    func auditSample() throws -> (folder: TemporaryTree, output: String) {
        let folder = try TemporaryTree("sample")
        let generated = try StocktakeProcess.runCommand(
            [
                "/usr/bin/env", "python3", Self.repository + "/Samples/make_sample.py", "--version", "1", "--out",
                folder.path("ChatApp.xcappdata"),
            ])
        try #require(generated.status == 0, "\(generated.stderr)")
        let output = folder.path("reports")
        let environment = ["SOURCE_DATE_EPOCH": Self.fixedTime]
        let result = try StocktakeProcess.run(
            ["audit", folder.path("ChatApp.xcappdata"), "--output", output, "--quiet"], environment: environment)
        // The sample's persisted session cookie is an error (Library/Cookies is backed up): a policy failure.
        try #require(result.status == 2, "\(result.stderr)")
        return (folder, output)
    }

    /// The committed sample as a clone checks it out: copied without its times, every entry then dated `checkout`
    /// (git writes each file as it checks it out), and `pulledLater` (relative to the sample) dated ten days on,
    /// as a later `git pull` that changed that file leaves it.
    func auditCheckedOutSample(dated checkout: Int, pulledLater: String? = nil) throws -> (
        folder: TemporaryTree, output: String
    ) {
        let folder = try TemporaryTree("checkout")
        let copy = folder.path("ChatApp.xcappdata")
        let copied = try StocktakeProcess.runCommand([
            "/bin/cp", "-R", Self.repository + "/Samples/ChatApp.xcappdata", copy,
        ])
        try #require(copied.status == 0, "\(copied.stderr)")
        // From Swift: GNU touch's `-d @SECONDS` is not in BSD touch (macOS).
        try FileTimes.setRecursively(copy, to: checkout)
        if let pulledLater {
            try FileTimes.set(copy + "/" + pulledLater, to: checkout + 10 * 86_400)
        }
        let output = folder.path("reports")
        let result = try StocktakeProcess.run(
            ["audit", copy, "--output", output, "--quiet", "--format", "json,html"],
            environment: ["SOURCE_DATE_EPOCH": Self.fixedTime])
        try #require(result.status == 2, "\(result.stderr)")
        return (folder, output)
    }

    /// Replaces what legitimately varies: where the sample was generated, and the tool's version.
    func normalized(_ text: String, folder: TemporaryTree) -> String {
        text.replacingOccurrences(of: folder.root + "/", with: "Samples/")
            .replacingOccurrences(of: "\"version\": \"\(Self.toolVersion)\"", with: "\"version\": \"${TOOL_VERSION}\"")
            .replacingOccurrences(of: "\"version\":\"\(Self.toolVersion)\"", with: "\"version\":\"${TOOL_VERSION}\"")
            .replacingOccurrences(of: "stocktake \(Self.toolVersion)", with: "stocktake ${TOOL_VERSION}")
    }

    static var toolVersion: String {
        (try? StocktakeProcess.run(["--version"]))?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }

    @Test(.enabled(if: fileSystemMatchesExample || OutsideTools.inCI, exampleFileSystemHint))
    func reportsMatchTheCommittedExample() throws {
        try Self.requireExampleFileSystem()
        let (folder, output) = try auditCheckedOutSample(dated: Int(Self.fixedTime)!)
        for name in ["report.json", "report.html"] {
            let actual = normalized(try String(contentsOfFile: output + "/" + name, encoding: .utf8), folder: folder)
            try Golden.check(actual, against: "Reports/Example/" + name)
        }
    }

    /// The README's claim: `swift run stocktake audit Samples/ChatApp.xcappdata` on a fresh clone reports exactly
    /// the findings of `Reports/Example/report.json`, whenever it was cloned and whatever a later pull touched.
    /// Where folders are not 4 KiB (APFS), a finding on a folder counts other bytes: its size is then left out.
    @Test("a fresh clone, today or after a pull, gives exactly the findings of Reports/Example")
    func aFreshCloneGivesTheExamplesFindings() throws {
        let now = Int(time(nil))
        let folderSizes = Self.fileSystemMatchesExample
        for pulled in [nil, "AppData/Library/Preferences/com.example.chat.plist"] {
            let (folder, output) = try auditCheckedOutSample(dated: now, pulledLater: pulled)
            defer { withExtendedLifetime(folder) {} }
            let actual = try Self.findings(output + "/report.json", folderSizes: folderSizes)
            let expected = try Self.findings(Self.repository + "/Reports/Example/report.json", folderSizes: folderSizes)
            #expect(
                actual == expected,
                "pulled later: \(pulled ?? "nothing")\nunexpected: \(actual.subtracting(expected).sorted())\nmissing: \(expected.subtracting(actual).sorted())"
            )
        }
    }

    /// Each finding as one comparable line: rule, severity, path, bytes, fingerprint, message. Without
    /// `folderSizes`, a finding on a folder has its bytes and the size in its message (`(69.6 KB)`) left out.
    static func findings(_ path: String, folderSizes: Bool = true) throws -> Set<String> {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let folders = Set((report["directories"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String })
        return Set(
            findings.map { finding in
                let sized = folderSizes || !folders.contains(finding["path"] as? String ?? "")
                return ["rule", "severity", "path", "bytes", "fingerprint", "message"].map { key in
                    let value = "\(finding[key] ?? "-")"
                    if sized { return value }
                    if key == "bytes" { return "(folder)" }
                    if key == "message" {
                        return value.replacingOccurrences(
                            of: #"\d[\d.,]* ([KMGT]?B|bytes)"#, with: "SIZE", options: .regularExpression)
                    }
                    return value
                }.joined(separator: " | ")
            })
    }

    @Test(.enabled(if: ExternalTools.hasJSONSchema || OutsideTools.required, "\(ExternalTools.jsonSchemaHint)"))
    func sampleReportIsValidAgainstTheSchemaWithSortedKeys() throws {
        let (folder, output) = try auditSample()
        defer { withExtendedLifetime(folder) {} }
        try ExternalTools.checkReport(output + "/report.json", schema: Self.repository + "/Reports/report.schema.json")
    }

    @Test func sampleTotalsMatchDu() throws {
        let (folder, output) = try auditSample()
        let data = try Data(contentsOf: URL(fileURLWithPath: output + "/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let totals = try #require(report["totals"] as? [String: Any])
        let onDisk = try #require(totals["onDisk"] as? [String: Any])
        let root = folder.path("ChatApp.xcappdata/AppData")
        #expect(onDisk["allocatedBytes"] as? Int64 == (try DiskUsage.bytes(root)))
        #expect(onDisk["apparentBytes"] as? Int64 == (try DiskUsage.bytes(root, apparent: true)))
    }

    /// With thresholds scaled to its size (`Samples/stocktake.yml`), the sample gives exactly the findings its
    /// README lists as deliberate misplacements, and none on its clean files.
    /// Both as the generator writes it (with its times) and as a fresh clone has it (every file dated at checkout).
    @Test(arguments: [false, true])
    func theSampleGivesItsDocumentedFindingsAndNoOthers(checkedOut: Bool) throws {
        let folder = try TemporaryTree("sample-policy")
        if checkedOut {
            let copied = try StocktakeProcess.runCommand([
                "/bin/cp", "-R", Self.repository + "/Samples/ChatApp.xcappdata", folder.path("ChatApp.xcappdata"),
            ])
            try #require(copied.status == 0, "\(copied.stderr)")
            try FileTimes.setRecursively(folder.path("ChatApp.xcappdata"), to: Int(time(nil)))
        } else {
            let generated = try StocktakeProcess.runCommand(
                [
                    "/usr/bin/env", "python3", Self.repository + "/Samples/make_sample.py", "--version", "1", "--out",
                    folder.path("ChatApp.xcappdata"),
                ])
            try #require(generated.status == 0, "\(generated.stderr)")
        }
        let result = try StocktakeProcess.run([
            "audit", folder.path("ChatApp.xcappdata"), "--output", folder.path("out"), "--format", "json", "--quiet",
            "--config", Self.repository + "/Samples/stocktake.yml",
        ])
        #expect(result.status == 2, "one error at default severities, the session cookie: \(result.stderr)")
        #expect(result.stderr.contains("1 error"), "\(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.path("out/report.json")))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let found = Set(findings.map { "\($0["rule"] as? String ?? "") \($0["path"] as? String ?? "")" })
        let chat = "Library/Application Support/Chats/c57f04ecf8a130a2187f5402cba59b910"
        let expected: Set<String> = [
            "credential-cookie Library/Cookies/com.example.chat.binarycookies",
            "documents-hidden-data Documents/.sync_state.json",
            "documents-hidden-data Documents/chat-index.sqlite",
            "documents-hidden-data Documents/chat-index.sqlite-shm",
            "documents-hidden-data Documents/chat-index.sqlite-wal",
            "documents-hidden-data Documents/debug.log",
            "documents-hidden-data Documents/sync.lock",
            "duplicate-content Documents/Received Files/Meeting notes 2025-05-28.pdf",
            "duplicate-content \(chat)/images/470828004642099781.jpg",
            "large-backed-up-file Library/Application Support/ChatBackup/chat-backup-2025-05-30.zip",
            "library-root-file Library/feature_flags.json",
            "preferences-bloat Library/Preferences/com.example.chat.plist",
            "sqlite-sidecar Library/Application Support/Sync/contacts.sqlite-journal",
            "sqlite-sidecar Library/Application Support/Sync/sync-state.sqlite-wal",
            "interrupted-deletion tmp/.trash-AE168B47-72B1-4F57-9AC4-5FD78CC584D1",
            "tmp-leftovers tmp/(A Document Being Saved By ChatApp)",
            "tmp-leftovers tmp/uploads",
        ]
        #expect(
            found == expected,
            "unexpected: \(found.subtracting(expected).sorted()); missing: \(expected.subtracting(found).sorted())")
        // The stale sidecar is no finding (it was read fine): the issues list it with its own advice.
        let issues = try #require(report["issues"] as? [[String: Any]])
        #expect(
            issues.contains {
                $0["reason"] as? String == "unpairedSidecar"
                    && ($0["detail"] as? String)?.hasPrefix("stale AppleDouble sidecar") == true
            })
        let groups = try #require(report["groups"] as? [String: [String: Any]])
        #expect((groups["chats"]?["members"] as? [Any])?.count == 8)
    }
}
