import Foundation
import TestSupport
import Testing

/// Issue 13 through the real binary: a container audited from archives of it, read in place, gives what the
/// folder gives. The archives come from real tools where CI has them (GNU tar --xattrs, bsdtar) and from a
/// script writing what macOS writes (Finder's `__MACOSX/` zip, macOS tar's `LIBARCHIVE.xattr.*` records).
@Suite(.enabled(if: LibArchiveProbe.enabled, LibArchiveProbe.hint)) struct ArchiveAuditTests {
    static let timeout = 120.0
    static let script = Repository.path("Tests/Scripts/mac_archive.py")

    /// `X.xcappdata` with a flagged file, a flagged folder (its descendants inherit), places iOS never backs
    /// up, two copies of one photo, a SQLite store and a link.
    static func container() throws -> TemporaryTree {
        let tree = try TemporaryTree("archive")
        let app = "X.xcappdata/AppData/"
        try tree.write(
            "X.xcappdata/AppDataInfo.plist",
            string: """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.archive</string></dict></plist>
                """)
        try tree.write(app + "Documents/notes.txt", string: "hello\n")
        try tree.write(app + "Documents/café ☕.txt", string: "a name beyond ASCII\n")
        try tree.write(app + "Documents/draft.txt", string: "a draft the app flagged\n")
        let photo: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<9_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try tree.write(app + "Documents/photo.jpg", bytes: photo)
        try tree.write(app + "Documents/copy of photo.jpg", bytes: photo)
        try tree.symlink(app + "Documents/latest", to: "notes.txt")
        try tree.write(
            app + "Library/Application Support/Downloads/a/video.bin", bytes: [UInt8](repeating: 7, count: 5_000))
        try tree.write(app + "Library/Application Support/Downloads/b.dat", string: "b")
        try tree.write(
            app + "Library/Application Support/store.sqlite",
            bytes: Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 4_080))
        try tree.write(app + "Library/Caches/cache.db", bytes: Array("SQLite format 3\0".utf8))
        try tree.write(app + "Library/Preferences/com.example.archive.plist", bytes: Array("bplist00".utf8) + [0x08])
        try tree.write(app + "tmp/upload.part", string: "partial")
        try tree.excludeFromBackup(app + "Documents/draft.txt")
        try tree.excludeFromBackup(app + "Library/Application Support/Downloads")
        return tree
    }

    static func run(_ arguments: [String]) throws -> ProcessResult {
        let result = try StocktakeProcess.run(arguments, timeout: timeout)
        #expect(!result.timedOut, "stocktake \(arguments.joined(separator: " ")) hung")
        return result
    }

    /// Runs a command that makes or unpacks an archive. COPYFILE_DISABLE=1: Apple's tar (bsdtar) otherwise adds a
    /// `._name` AppleDouble member for every file with extended attributes or flags (copyfile(3) packing), which
    /// the archives here must not have; GNU tar and Python ignore it.
    static func command(_ command: [String], in folder: String? = nil) throws {
        let result = try StocktakeProcess.runCommand(
            command, currentDirectory: folder, environment: ["COPYFILE_DISABLE": "1"], timeout: timeout)
        try #require(result.status == 0, "\(command.joined(separator: " ")): \(result.stderr)")
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// What a user compares between two audits of one container: every entry's type, kind, apparent size and
    /// backup state, folders' backup states, and the duplicate sets.
    struct Audit: Equatable, CustomStringConvertible {
        let files: [String: String]
        let folders: [String: String]
        let duplicates: [String]

        init(_ report: [String: Any]) {
            var files: [String: String] = [:]
            for file in report["files"] as? [[String: Any]] ?? [] {
                let path = file["path"] as? String ?? "?"
                files[path] =
                    "\(file["type"] ?? "") \(file["kind"] ?? "") \(file["apparentBytes"] ?? "") \(file["backup"] ?? "")"
            }
            var folders: [String: String] = [:]
            for folder in report["directories"] as? [[String: Any]] ?? [] {
                folders[folder["path"] as? String ?? "?"] = "\(folder["backup"] ?? "")"
            }
            self.files = files
            self.folders = folders
            duplicates = (report["findings"] as? [[String: Any]] ?? []).filter {
                $0["rule"] as? String == "duplicate-content"
            }
            .map { "\($0["path"] ?? "") \($0["message"] ?? "")" }.sorted()
        }

        var description: String {
            (files.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                + folders.sorted { $0.key < $1.key }.map { "\($0.key)/: \($0.value)" } + duplicates)
                .joined(separator: "\n")
        }
    }

    /// Audits `input` with duplicate detection on; returns the report.
    static func audit(_ input: String, into output: String, config: String) throws -> [String: Any] {
        let result = try run([
            "audit", input, "--output", output, "--format", "json", "--config", config, "--fail-on", "never", "--quiet",
        ])
        try #require(result.status == 0, "audit \(input): \(result.stderr)")
        return try json(output + "/report.json")
    }

    @Test func archivesGiveWhatTheFolderGives() throws {
        let tree = try Self.container()
        let work = try TemporaryTree("archive-out")
        try work.write("stocktake.yml", string: "rules:\n  duplicate-content:\n    minimumBytes: 1 KiB\n")
        let config = work.path("stocktake.yml")
        let folder = try Self.audit(tree.path("X.xcappdata"), into: work.path("folder"), config: config)
        let expected = Audit(folder)
        #expect(expected.files["Documents/draft.txt"]?.hasSuffix(" excluded") == true)
        #expect(
            expected.files["Library/Application Support/Downloads/a/video.bin"]?.hasSuffix(" excluded") == true,
            "inherited")
        #expect(expected.files["Documents/notes.txt"]?.hasSuffix(" included") == true)
        #expect(expected.duplicates.count == 1)

        var archives: [(name: String, make: [String])] = [
            ("finder.zip", ["python3", Self.script, "finder-zip", tree.root, "X.xcappdata", work.path("finder.zip")]),
            ("mac.tgz", ["python3", Self.script, "libarchive-tgz", tree.root, "X.xcappdata", work.path("mac.tgz")]),
            (
                "gnu.tar",
                ["tar", "--xattrs", "--format=posix", "-C", tree.root, "-cf", work.path("gnu.tar"), "X.xcappdata"]
            ),
        ]
        if OutsideTools.has("xz") {
            archives.append(
                (
                    "gnu.tar.xz",
                    [
                        "tar", "--xattrs", "--format=posix", "-J", "-C", tree.root, "-cf", work.path("gnu.tar.xz"),
                        "X.xcappdata",
                    ]
                ))
        }
        if OutsideTools.has("bsdtar") {
            archives.append(
                ("bsd.tar.gz", ["bsdtar", "--xattrs", "-czf", work.path("bsd.tar.gz"), "-C", tree.root, "X.xcappdata"]))
        } else {
            #expect(!OutsideTools.required, "bsdtar (libarchive-tools) is missing; \(OutsideTools.requirementHint)")
        }
        for archive in archives {
            try Self.command(archive.make)
            let report = try Self.audit(work.path(archive.name), into: work.path("out-" + archive.name), config: config)
            let found = Audit(report)
            #expect(found == expected, "\(archive.name) differs from the folder:\n\(found)\n--- folder:\n\(expected)")
            let container = try #require(report["container"] as? [String: Any])
            #expect(container["allocatedBytesEstimated"] as? Bool == true)
            #expect((container["archive"] as? [String: Any])?["folder"] as? String == "X.xcappdata")
            #expect(container["bundleIdentifier"] as? String == "com.example.archive")
            try ExternalTools.checkReport(
                work.path("out-" + archive.name + "/report.json"), schema: Repository.path("Reports/report.schema.json")
            )
            for file in report["files"] as? [[String: Any]] ?? [] where file["type"] as? String == "file" {
                let apparent = try #require(file["apparentBytes"] as? Int)
                #expect(file["allocatedBytes"] as? Int == (apparent + 4095) / 4096 * 4096, "APFS 4 KiB blocks: \(file)")
            }
        }
        // Reports of archives diff as any other.
        let diff = try Self.run(["diff", work.path("folder"), work.path("out-finder.zip"), "--format", "json"])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("\"added\""), "\(diff.stdout.prefix(400))")
    }

    /// A Finder zip unzipped: `__MACOSX/` lies beside the package, and still carries the flags.
    @Test(
        .enabled(
            if: OutsideTools.has("bsdtar") || OutsideTools.required,
            "needs bsdtar (libarchive-tools); \(OutsideTools.requirementHint)"))
    func unzippedFinderZipKeepsItsEvidence() throws {
        let tree = try Self.container()
        let work = try TemporaryTree("archive-unzip")
        try work.write("stocktake.yml", string: "rules: {}\n")
        try Self.command(["python3", Self.script, "finder-zip", tree.root, "X.xcappdata", work.path("finder.zip")])
        try work.mkdir("unzipped")
        try Self.command(["bsdtar", "-xf", work.path("finder.zip"), "-C", work.path("unzipped")])
        #expect(
            FileManager.default.fileExists(
                atPath: work.path("unzipped/__MACOSX/X.xcappdata/AppData/Documents/._draft.txt")))
        let expected = Audit(
            try Self.audit(tree.path("X.xcappdata"), into: work.path("folder"), config: work.path("stocktake.yml")))
        let unzipped = try Self.audit(
            work.path("unzipped/X.xcappdata"), into: work.path("unzipped-report"), config: work.path("stocktake.yml"))
        #expect(Audit(unzipped) == expected)
        let evidence = try #require(unzipped["evidence"] as? [String: Any])
        #expect(evidence["appleDoubleSidecars"] as? Int == 2)
        #expect(evidence["flaggedByAppleDouble"] as? Int == 2)
    }

    /// Names that would climb out on extraction are left out and reported; nothing is written anywhere but the
    /// output folder (nothing is extracted at all).
    @Test func climbingNamesWriteNothing() throws {
        let work = try TemporaryTree("archive-hostile")
        try work.mkdir("inbox/deep")
        let absolute = work.path("absolute-escape.txt")
        let script = """
            import io, sys, tarfile, zipfile
            def add(t, name, data=b"", kind=tarfile.REGTYPE, link=""):
                info = tarfile.TarInfo(name); info.type = kind; info.linkname = link
                info.size = len(data) if kind == tarfile.REGTYPE else 0
                t.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
            with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as t:
                add(t, "C/Documents/", kind=tarfile.DIRTYPE)
                add(t, "C/Library/Preferences/", kind=tarfile.DIRTYPE)
                add(t, "C/Documents/a.txt", b"first")
                add(t, "../escape.txt", b"out")
                add(t, "C/../../../escape2.txt", b"out")
                add(t, sys.argv[3], b"out")
                add(t, "C/Documents/link", kind=tarfile.SYMTYPE, link="../../../../etc/passwd")
                add(t, "C/Documents/a.txt", b"second")
            with zipfile.ZipFile(sys.argv[2], "w") as z:
                z.writestr("C/Documents/a.txt", b"a")
                z.writestr("C/Library/Preferences/p.plist", b"bplist00")
                z.writestr("../zip-escape.txt", b"out")
            """
        try Self.command([
            "python3", "-c", script, work.path("inbox/deep/hostile.tar"), work.path("inbox/deep/hostile.zip"), absolute,
        ])
        for name in ["hostile.tar", "hostile.zip"] {
            let output = work.path("out/\(name)/reports")
            let result = try Self.run([
                "audit", work.path("inbox/deep/" + name), "--output", output, "--format", "json,html", "--quiet",
                "--fail-on", "never",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let issues = try #require(try Self.json(output + "/report.json")["issues"] as? [[String: Any]])
            let leftOut = issues.filter { ($0["detail"] as? String)?.contains("left out") == true }.compactMap {
                $0["path"] as? String
            }
            #expect(leftOut.contains { $0.hasSuffix("escape.txt") }, "\(issues)")
        }
        for escaped in [
            "escape.txt", "escape2.txt", "zip-escape.txt", "inbox/escape.txt", "inbox/deep/escape.txt",
            "out/escape.txt",
        ] {
            #expect(!FileManager.default.fileExists(atPath: work.path(escaped)), "\(escaped) was written")
        }
        #expect(!FileManager.default.fileExists(atPath: absolute))
        let report = try Self.json(work.path("out/hostile.tar/reports/report.json"))
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(
            files.first { $0["path"] as? String == "Documents/a.txt" }?["apparentBytes"] as? Int == 6,
            "the last copy counts")
        #expect(files.first { $0["path"] as? String == "Documents/link" }?["type"] as? String == "symlink")
    }

    /// Two 128 MiB entries that compress to almost nothing: read as they stream (kinds, then hashes for the
    /// duplicate check), never held whole. The audit's peak memory stays below one entry's size on top of what a
    /// small audit takes.
    @Test func largeEntriesAreNeverHeldWhole() throws {
        let work = try TemporaryTree("archive-large")
        try work.write("stocktake.yml", string: "rules:\n  duplicate-content: {}\n")
        let script = """
            import sys, zipfile
            zeros = bytes(128 << 20)
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("C/Documents/zeros-a.bin", zeros)
                z.writestr("C/Documents/zeros-b.bin", zeros)
                z.writestr("C/Library/Preferences/p.plist", b"bplist00")
            """
        try Self.command(["python3", "-c", script, work.path("large.zip")])
        let measure =
            "import resource, subprocess, sys\nstatus = subprocess.run(sys.argv[1:]).returncode\n"
            + "print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        let result = try StocktakeProcess.runCommand(
            [
                "/usr/bin/env", "python3", "-c", measure, StocktakeProcess.binary, "audit", work.path("large.zip"),
                "--output", work.path("out"),
                "--format", "json", "--config", work.path("stocktake.yml"), "--fail-on", "never", "--quiet",
            ], timeout: Self.timeout)
        let fields = result.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try #require(fields.count == 2, "\(result.stdout)\(result.stderr)")
        #expect(fields[0] == 0, "\(result.stderr)")
        #expect(fields[1] < 110 * 1024, "peak memory \(fields[1]) KiB: an entry was held whole")
        let report = try Self.json(work.path("out/report.json"))
        let sizes = (report["files"] as? [[String: Any]] ?? []).compactMap { $0["apparentBytes"] as? Int }
        #expect(sizes.filter { $0 == 128 << 20 }.count == 2)
        let duplicates = (report["findings"] as? [[String: Any]] ?? []).filter {
            $0["rule"] as? String == "duplicate-content"
        }
        #expect(duplicates.count == 1)
    }

    @Test(arguments: ["gnu.tar", "gnu.tar.gz", "finder.zip"])
    func truncatedArchiveExitsOne(_ name: String) throws {
        let tree = try Self.container()
        let work = try TemporaryTree("archive-truncated")
        let make: [String] =
            switch name {
            case "finder.zip": ["python3", Self.script, "finder-zip", tree.root, "X.xcappdata", work.path(name)]
            case "gnu.tar.gz": ["tar", "--format=posix", "-z", "-C", tree.root, "-cf", work.path(name), "X.xcappdata"]
            default: ["tar", "--format=posix", "-C", tree.root, "-cf", work.path(name), "X.xcappdata"]
            }
        try Self.command(make)
        let whole = try Data(contentsOf: URL(fileURLWithPath: work.path(name)))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: work.path("cut-" + name)))
        let result = try Self.run(["audit", work.path("cut-" + name), "--output", work.path("out"), "--format", "json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("truncated"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.path("out/report.json")))
    }

    @Test func fileThatIsNoArchiveExitsOne() throws {
        let work = try TemporaryTree("archive-none")
        try work.write("notes.zip", string: "not a zip at all\n")
        let result = try Self.run(["audit", work.path("notes.zip"), "--output", work.path("out")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("could not be read as an archive"), "\(result.stderr)")
    }

    /// The nightly inbox takes archives beside folders; the `__MACOSX/` an unzip leaves is no entry.
    @Test func nightlyInboxTakesArchives() throws {
        let tree = try Self.container()
        let work = try TemporaryTree("archive-nightly")
        try work.mkdir("inbox/__MACOSX")
        try Self.command([
            "python3", Self.script, "finder-zip", tree.root, "X.xcappdata", work.path("inbox/export.zip"),
        ])
        let result = try StocktakeProcess.run(
            ["nightly", work.path("inbox"), work.path("reports")], currentDirectory: work.root, timeout: Self.timeout)
        #expect(result.status == 0 || result.status == 2, "\(result.stderr)")
        #expect(
            !result.stdout.contains("__MACOSX") && !result.stderr.contains("__MACOSX"),
            "\(result.stdout)\(result.stderr)")
        let latest = work.path("reports/com.example.archive/latest/report.json")
        let report = try Self.json(latest)
        #expect((report["container"] as? [String: Any])?["allocatedBytesEstimated"] as? Bool == true)
        // The next night the same archive is not audited again; a rewritten one is.
        let runs = {
            try FileManager.default.contentsOfDirectory(atPath: work.path("reports/com.example.archive")).filter {
                $0 != "latest"
            }.count
        }
        let before = try runs()
        let again = try StocktakeProcess.run(
            ["nightly", work.path("inbox"), work.path("reports")], currentDirectory: work.root, timeout: Self.timeout)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try runs() == before, "an archive already audited is skipped")
        try Self.command([
            "python3", Self.script, "finder-zip", tree.root, "X.xcappdata", work.path("inbox/export.zip"),
        ])
        var times = [timespec(tv_sec: 2_000_000_000, tv_nsec: 0), timespec(tv_sec: 2_000_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, work.path("inbox/export.zip"), &times, 0)
        let third = try StocktakeProcess.run(
            ["nightly", work.path("inbox"), work.path("reports")], currentDirectory: work.root, timeout: Self.timeout)
        #expect(third.status == 0 || third.status == 2, "\(third.stderr)")
        #expect(try runs() == before + 1, "a rewritten archive is audited again")
    }

    /// Stopped by SIGTERM (cron's timeout) while it reads an archive, the audit removes its private copies and
    /// ends by the signal: nothing is left in the temporary folder, where an archive's copies can reach gigabytes.
    @Test func aStoppedAuditLeavesNoCopies() throws {
        let work = try TemporaryTree("archive-stopped")
        try work.mkdir("tmp")
        let script = """
            import sys, tarfile, io
            class Zeros(io.RawIOBase):
                def __init__(self, n): self.left = n
                def readable(self): return True
                def readinto(self, b):
                    n = min(len(b), self.left); b[:n] = bytes(n); self.left -= n; return n
            with tarfile.open(sys.argv[1], "w:gz", compresslevel=1) as t:
                for name in ["Documents/", "Library/", "tmp/"]:
                    d = tarfile.TarInfo(name); d.type = tarfile.DIRTYPE; t.addfile(d)
                big = tarfile.TarInfo("Documents/big.bin"); big.size = 3 << 30
                t.addfile(big, io.BufferedReader(Zeros(big.size)))
            """
        let made = try StocktakeProcess.runCommand(["python3", "-c", script, work.path("big.tar.gz")])
        try #require(made.status == 0, "\(made.stderr)")
        let audit = Process()
        audit.executableURL = URL(fileURLWithPath: try StocktakeProcess.binary)
        audit.arguments = ["audit", work.path("big.tar.gz"), "--quiet", "--output", work.path("out")]
        audit.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": work.path("tmp")]) { $1 }
        try audit.run()
        // The first pass makes its folder for the copies as it starts; the 3 GiB member takes seconds to skip.
        var waited = 0
        while waited < 2_000, (try? FileManager.default.contentsOfDirectory(atPath: work.path("tmp")))?.isEmpty ?? true
        {
            usleep(5_000)
            waited += 1
        }
        kill(audit.processIdentifier, SIGTERM)
        audit.waitUntilExit()
        #expect(audit.terminationReason == .uncaughtSignal && audit.terminationStatus == SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path("tmp")) == [])
    }
}
