import Foundation
import TestSupport
import Testing

/// The real binary on temporary trees: output files, exit statuses, messages.
@Suite struct AuditCommandTests {
    static func container() throws -> TemporaryTree {
        let tree = try TemporaryTree("e2e")
        try tree.write("Documents/Report.pdf", bytes: Array("%PDF-1.7 body".utf8))
        try tree.write("Library/Preferences/com.example.e2e.plist", bytes: Array("bplist00".utf8))
        try tree.write("Library/Caches/com.example.e2e/Cache.db", bytes: Array("SQLite format 3\0".utf8))
        try tree.mkdir("tmp")
        return tree
    }

    func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func writesBothReportsAndASummary() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run(["audit", tree.root, "--output", out.root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Bundle id:  com.example.e2e"))
        #expect(result.stdout.contains("Reports:    \(out.root)"))
        // stderr is a pipe here, not a terminal: no progress line.
        #expect(result.stderr.isEmpty)
        let report = try json(out.path("report.json"))
        #expect(report["schemaVersion"] as? Int == 1)
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(
            files.map { $0["path"] as? String } == [
                "Documents/Report.pdf", "Library/Caches/com.example.e2e/Cache.db",
                "Library/Preferences/com.example.e2e.plist",
            ])
        let html = try String(contentsOfFile: out.path("report.html"), encoding: .utf8)
        #expect(html.contains("Content-Security-Policy"))
        // Only the two reports: no temporary files left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.root).sorted() == ["report.html", "report.json"])
    }

    @Test("summary.md names only the report files the run wrote")
    func summaryNamesOnlyWrittenFiles() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        for (formats, named, absent) in [
            ("markdown", [String](), ["report.json", "report.html"]),
            ("json,markdown,github", ["report.json"], ["report.html", "annotations"]),
            ("markdown,sarif,html", ["report.sarif", "report.html"], ["report.json"]),
        ] {
            let folder = out.path(formats)
            let result = try StocktakeProcess.run([
                "audit", tree.root, "--output", folder, "--format", formats, "--quiet",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let written = try FileManager.default.contentsOfDirectory(atPath: folder)
            let summary = try String(contentsOfFile: folder + "/summary.md", encoding: .utf8)
            let closing = try #require(summary.split(separator: "\n").last.map(String.init))
            for name in named {
                #expect(closing.contains("`\(name)`") && written.contains(name), "\(formats): \(closing)")
            }
            for name in absent { #expect(!closing.contains(name), "\(formats): \(closing)") }
        }
    }

    @Test("a missing --config or --baseline says the system's reason, one line, exit 64")
    func missingPolicyFilesSayWhy() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        for option in ["--config", "--baseline"] {
            let result = try StocktakeProcess.run([
                "audit", tree.root, "--output", out.root, option, out.path("missing.file"),
            ])
            #expect(result.status == 64)
            #expect(
                result.stderr.contains("missing.file") && result.stderr.contains("No such file or directory"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("not a Stocktake baseline"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        let nightly = try StocktakeProcess.run([
            "nightly", tree.root, out.path("reports"), "--config", out.path("missing.file"),
        ])
        #expect(nightly.status == 64 && nightly.stderr.contains("No such file or directory"), "\(nightly.stderr)")
    }

    @Test func quietPrintsNothingAndFormatPicksFiles() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run(["audit", tree.root, "--output", out.root, "--format", "json", "--quiet"])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.root) == ["report.json"])
    }

    @Test("--timings lists the phases that ran, as docs/usage.md names them: duplicates only with duplicate-content")
    func timingsListThePhasesThatRan() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        func phases(_ options: [String]) throws -> [String] {
            let result = try StocktakeProcess.run(
                ["audit", tree.root, "--output", out.root, "--quiet", "--timings"] + options)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr.split(separator: "\n").compactMap { line in
                line.hasPrefix("timings: ")
                    ? line.dropFirst("timings: ".count).split(separator: " ").dropLast(2).joined(separator: " ") : nil
            }
        }
        let plain = try phases([])
        #expect(
            Set(plain) == [
                "identify", "walk", "inventory (backup state, totals)", "content", "rules", "render html",
                "wait for rules", "write json", "write html", "total",
            ], "\(plain)")
        try out.write("duplicates.yml", string: "rules:\n  duplicate-content: {enabled: true}\n")
        let duplicates = try phases(["--config", out.path("duplicates.yml"), "--no-content-checks", "--format", "json"])
        #expect(
            Set(duplicates) == [
                "identify", "walk", "inventory (backup state, totals)", "duplicates", "rules", "wait for rules",
                "write json", "total",
            ], "\(duplicates)")
    }

    @Test("a failing audit says why in one line on stderr, even with --quiet (cron mails exactly that line)")
    func aPolicyFailureSaysWhy() throws {
        let tree = try Self.container()
        try tree.write("Documents/debug.log", string: "internal")
        try tree.write("Library/stray.json", string: "{}")
        let out = try TemporaryTree("out")
        let passing = try StocktakeProcess.run(["audit", tree.root, "--output", out.root, "--quiet"])
        #expect(passing.status == 0 && passing.stderr.isEmpty, "warnings do not fail by default: \(passing.stderr)")
        let strict = try StocktakeProcess.run(["audit", tree.root, "--output", out.root, "--quiet", "--strict"])
        #expect(strict.status == 2)
        #expect(strict.stdout.isEmpty)
        let lines = strict.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(strict.stderr)")
        #expect(
            lines.first?.hasPrefix("stocktake: failed: 2 warnings at or above warning (reports in ") == true,
            "\(strict.stderr)")
    }

    @Test("the summary opens with the verdict: the gate, why, and the counts with grouped digits")
    func summaryOpensWithTheVerdict() throws {
        let tree = try Self.container()
        try tree.write("Documents/debug.log", string: "internal")
        try tree.write("Library/stray.json", string: "{}")
        for i in 0..<1_000 { try tree.write("tmp/t\(i)", string: "x") }
        let out = try TemporaryTree("out")
        let passing = try StocktakeProcess.run(["audit", tree.root, "--output", out.root])
        let first = passing.stdout.split(separator: "\n").first ?? ""
        #expect(first.hasPrefix("Passed (--fail-on error): no finding at or above error; "), "\(passing.stdout)")
        let strict = try StocktakeProcess.run(["audit", tree.root, "--output", out.root, "--strict"])
        #expect(strict.stdout.hasPrefix("Failed (--fail-on warning): "), "\(strict.stdout)")
        #expect(strict.stdout.contains("1,0"), "a count of a thousand or more has its separator: \(strict.stdout)")
    }

    @Test("a GitHub annotation names a file only when the container lies in the repository and has it")
    func annotationsNameRepositoryFiles() throws {
        let repository = try TemporaryTree("repository")
        try repository.write("Exports/X/Documents/debug.log", string: "internal")
        try repository.write("Exports/X/Library/stray.json", string: "{}")
        let out = try TemporaryTree("out")
        let arguments = ["audit", repository.path("Exports/X"), "--output", out.root, "--format", "json,github"]
        let inside = try StocktakeProcess.run(arguments, environment: ["GITHUB_WORKSPACE": repository.root])
        let lines = inside.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(!lines.isEmpty && lines.allSatisfy { $0.contains(" file=Exports/X/") }, "\(inside.stdout)")
        let elsewhere = try StocktakeProcess.run(arguments, environment: ["GITHUB_WORKSPACE": out.root])
        let others = elsewhere.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(
            others.count == lines.count
                && others.allSatisfy { !$0.contains("file=") && $0.contains(" in the container at ") },
            "\(elsewhere.stdout)")
    }

    @Test("an .xcappdata in the repository: annotations name its files under AppData/, where they are")
    func annotationsNameFilesOfACommittedExport() throws {
        let out = try TemporaryTree("out")
        let arguments = [
            "audit", Repository.path("Samples/ChatApp.xcappdata"), "--output", out.root, "--format", "github",
        ]
        let run = try StocktakeProcess.run(arguments, environment: ["GITHUB_WORKSPACE": Repository.root])
        let lines = run.stdout.split(separator: "\n").filter { $0.hasPrefix("::warning") }
        #expect(
            !lines.isEmpty && lines.allSatisfy { $0.contains(" file=Samples/ChatApp.xcappdata/AppData/") },
            "\(run.stdout)")
    }

    @Test func defaultOutputFolderIsPerAppAndTimestamped() throws {
        let tree = try Self.container()
        let work = try TemporaryTree("cwd")
        let result = try StocktakeProcess.run([tree.root, "--quiet"], currentDirectory: work.root)
        #expect(result.status == 0, "\(result.stderr)")
        let runs = try FileManager.default.contentsOfDirectory(atPath: work.path("Reports/com.example.e2e"))
        #expect(runs.count == 1)
        #expect(runs.first?.range(of: #"^\d{4}-\d\d-\d\dT\d{6}Z$"#, options: .regularExpression) != nil)
    }

    @Test(arguments: [
        (["audit", "/nonexistent/Container.xcappdata"], "no such file or folder"),
        // A file every system has (macOS has no /etc/hostname).
        (["audit", "/etc/passwd"], "is a file, not a container"),
    ])
    func inputThatCannotBeAuditedExitsOne(_ arguments: [String], _ message: String) throws {
        let result = try StocktakeProcess.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aFolderThatIsNoContainerSaysWhatWasExpected() throws {
        let tree = try TemporaryTree("plain")
        try tree.write("notes/readme.txt", string: "x")
        try tree.mkdir("Documents")
        let result = try StocktakeProcess.run(["audit", tree.root])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not an app data container"))
        #expect(result.stderr.contains("expected"))
    }

    @Test(arguments: [
        ["audit", "--no-such-flag", "x"], ["audit", "x", "--format", "pdf"], ["audit", "x", "--threads", "0"],
        ["audit"],
    ])
    func usageErrorsExitSixtyFour(_ arguments: [String]) throws {
        let result = try StocktakeProcess.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        // Worded as every other error (docs/usage.md, "Exit status"), then how the command is used.
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("stocktake: error: ") == true, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("Usage: stocktake audit") }, "\(result.stderr)")
        #expect(!result.stderr.contains("Error:"), "\(result.stderr)")
    }

    @Test func anUnwritableOutputFolderFailsCleanly() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("ro")
        try out.mkdir("reports")
        chmod(out.path("reports"), 0o555)
        defer { chmod(out.path("reports"), 0o755) }
        let result = try StocktakeProcess.run(
            ["audit", tree.root, "--output", out.path("reports")], withoutFilePermissionOverride: true)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path("reports")).isEmpty)
    }

    @Test func anOutputFolderThatCannotBeCreatedSaysWhy() throws {
        let tree = try Self.container()
        let out = try TemporaryTree("file")
        try out.write("plain", string: "")
        let result = try StocktakeProcess.run(["audit", tree.root, "--output", out.path("plain/reports")])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("cannot create the output folder") && result.stderr.contains("Not a directory"),
            "\(result.stderr)")
    }

    @Test func reportsAreNeverWrittenIntoTheAuditedTree() throws {
        let tree = try Self.container()
        let before = TreeSnapshot(tree.root)
        let result = try StocktakeProcess.run(["audit", tree.root, "--output", tree.path("Documents/reports")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("inside the audited container"))
        #expect(TreeSnapshot(tree.root) == before)
    }

    @Test func anUnreadableFolderIsRecordedAndTheAuditGoesOn() throws {
        let tree = try Self.container()
        try tree.write("Documents/Private/secret.txt", string: "x")
        chmod(tree.path("Documents/Private"), 0o000)
        defer { chmod(tree.path("Documents/Private"), 0o755) }
        let out = try TemporaryTree("out")
        chmod(out.root, 0o777)
        let result = try StocktakeProcess.run(
            ["audit", tree.root, "--output", out.root, "--quiet"], withoutFilePermissionOverride: true)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(out.path("report.json"))
        let all = try #require(report["issues"] as? [[String: Any]])
        // The container's truncated plist and Cache.db are the content checks' issues, never silent.
        let unread = all.filter { $0["reason"] as? String == "contentNotRead" }.compactMap { $0["path"] as? String }
        #expect(unread == ["Library/Caches/com.example.e2e/Cache.db", "Library/Preferences/com.example.e2e.plist"])
        let issues = all.filter { $0["reason"] as? String != "contentNotRead" }
        #expect(issues.count == 1)
        #expect(issues.first?["path"] as? String == "Documents/Private")
        #expect(issues.first?["reason"] as? String == "permissionDenied")
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.contains { $0["path"] as? String == "Documents/Report.pdf" })
    }

    @Test func aMalformedAppDataInfoIsReportedAndTheAuditGoesOn() throws {
        let tree = try TemporaryTree("broken")
        try tree.write(
            "Broken.xcappdata/AppDataInfo.plist", bytes: Array("bplist00".utf8) + [UInt8](repeating: 0xFF, count: 40))
        try tree.write("Broken.xcappdata/AppData/Documents/a.txt", string: "x")
        try tree.write(
            "Broken.xcappdata/AppData/Library/Preferences/com.example.broken.plist", bytes: Array("bplist00".utf8))
        try tree.mkdir("Broken.xcappdata/AppData/tmp")
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run([
            "audit", tree.path("Broken.xcappdata"), "--output", out.root, "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(out.path("report.json"))
        let container = try #require(report["container"] as? [String: Any])
        #expect(container["layout"] as? String == "xcappdata")
        #expect(container["bundleIdentifier"] as? String == "com.example.broken")
        let metadata = try #require(container["metadata"] as? [String: [String: Any]])
        #expect(metadata["AppDataInfo.plist"]?["problem"] is String)
        let issues = try #require(report["issues"] as? [[String: Any]])
        #expect(issues.first?["reason"] as? String == "malformedMetadata")
    }

    @Test func appSizeFollowsLINEsFormula() throws {
        let tree = try Self.container()
        try tree.write("Library/Caches/images/big.jpg", bytes: [UInt8](repeating: 1, count: 50_000))
        let companions = try TemporaryTree("companions")
        try companions.write(
            "Chat.app/Info.plist",
            string: """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0"><dict>
                <key>CFBundleIdentifier</key><string>com.example.e2e</string>
                <key>UIFileSharingEnabled</key><true/>
                </dict></plist>
                """)
        try companions.write("Chat.app/Chat", bytes: [UInt8](repeating: 0xCF, count: 120_000))
        try companions.write("Group/Library/Preferences/group.com.example.e2e.plist", bytes: Array("bplist00".utf8))
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.root, "--format", "json",
            "--app-bundle", companions.path("Chat.app"), "--app-group", companions.path("Group"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("App size:"))
        let report = try json(out.path("report.json"))
        let bundle = try #require(report["appBundle"] as? [String: Any])
        #expect(bundle["fileSharingEnabled"] as? Bool == true)
        #expect(bundle["bundleIdentifier"] as? String == "com.example.e2e")
        let totals = try #require(report["totals"] as? [String: Any])
        let appSize = try #require(totals["appSize"] as? [String: Int64])
        let expected =
            try DiskUsage.bytes(companions.path("Chat.app"))
            + (try DiskUsage.bytes(tree.root)) - (try DiskUsage.bytes(tree.path("Library/Caches")))
            + (try DiskUsage.bytes(companions.path("Group")))
        #expect(appSize["totalBytes"] == expected)
    }

    /// An app bundle whose Info.plist does not read: the audit goes on, says so in `issues`, and treats whether
    /// Documents is shared as unknown (a Documents finding stays a warning; a shared Documents would make it an error).
    @Test func aMalformedInfoPlistIsAnIssueAndUnknown() throws {
        let tree = try Self.container()
        try tree.write(
            "Documents/cache.sqlite", bytes: Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 100))
        let companions = try TemporaryTree("companions")
        try companions.write(
            "Chat.app/Info.plist",
            string: "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>UIFileSharingEnabled</key>")
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.run([
            "audit", tree.root, "--output", out.root, "--format", "json", "--fail-on", "never", "--app-bundle",
            companions.path("Chat.app"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try json(out.path("report.json"))
        let issues = try #require(report["issues"] as? [[String: Any]])
        let problem = issues.first { ($0["path"] as? String)?.hasSuffix("Chat.app/Info.plist") == true }
        #expect(problem?["reason"] as? String == "malformedMetadata", "\(issues)")
        #expect((problem?["detail"] as? String)?.contains("unknown") == true)
        let findings = try #require(report["findings"] as? [[String: Any]])
        let documents = findings.filter { $0["rule"] as? String == "documents-hidden-data" }
        #expect(!documents.isEmpty && documents.allSatisfy { $0["severity"] as? String == "warning" })
    }

    /// Runs `command` on a pseudo-terminal, as a person at a shell would, through Python's `pty` module (the same
    /// on Linux and macOS; util-linux `script -c` has no BSD counterpart). Prints what the terminal showed and
    /// exits with the command's status.
    static let onATerminal = """
        import os, pty, sys
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:  # Linux: EIO once the command has exited and closed the terminal
                break
            if not data:  # macOS: end of file instead
                break
            sys.stdout.buffer.write(data)
        sys.stdout.flush()
        _, status = os.waitpid(pid, 0)
        sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
        """

    @Test(
        .enabled(
            if: OutsideTools.has("python3") || OutsideTools.required,
            "needs python3 for a pseudo-terminal; \(OutsideTools.requirementHint)"))
    func aTerminalGetsAProgressLine() throws {
        try #require(OutsideTools.has("python3"), "python3 is not installed")
        let tree = try Self.container()
        let out = try TemporaryTree("out")
        let result = try StocktakeProcess.runCommand(
            ["python3", "-c", Self.onATerminal, StocktakeProcess.binary, "audit", tree.root, "--output", out.root],
            timeout: 120)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("scanning: "), "\(result.stdout)")
        #expect(result.stdout.contains("entries/s"), "\(result.stdout)")
    }
}
