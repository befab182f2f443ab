import Foundation
import StocktakeContent
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeScan

/// Archives read in place: names made safe, the container found inside, sidecars and pax records as evidence,
/// duplicates hashed as the archive streams. Archives are written by Python's tarfile/zipfile, byte for byte
/// what the test asks for.
@Suite(.enabled(if: LibArchiveProbe.enabled, LibArchiveProbe.hint)) struct ArchiveInputTests {
    static func python(_ script: String, _ arguments: [String]) throws {
        let result = try StocktakeProcess.runCommand(["/usr/bin/env", "python3", "-c", script] + arguments)
        try #require(result.status == 0, "\(result.stderr)")
    }

    /// A tar whose members are (name, data or nil for a folder, pax records).
    static func tar(_ path: String, _ members: [(String, String?, [String: String])]) throws {
        let script = """
            import io, json, sys, tarfile
            mode = "w:gz" if sys.argv[1].endswith("gz") else "w"
            with tarfile.open(sys.argv[1], mode, format=tarfile.PAX_FORMAT) as t:
                for name, data, pax in json.loads(sys.argv[2]):
                    info = tarfile.TarInfo(name)
                    info.pax_headers = pax
                    if data is None:
                        info.type = tarfile.DIRTYPE
                        t.addfile(info)
                    else:
                        raw = data.encode("latin-1")
                        info.size = len(raw)
                        t.addfile(info, io.BytesIO(raw))
            """
        let list = members.map { [$0.0, $0.1 as Any? ?? NSNull(), $0.2] as [Any] }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: list), as: UTF8.self)
        try python(script, [path, json])
    }

    static func entry(_ inventory: Inventory, _ path: String) throws -> Entry {
        let index = try #require(inventory.index(ofPath: Array(path.utf8)), "no \(path)")
        return inventory.entries[Int(index)]
    }

    @Test(arguments: [
        ("a/b", "a/b"), ("./a//b/", "a/b"), ("a/./b", "a/b"),
    ])
    func keepsSafeNames(_ name: String, _ expected: String) {
        guard case .path(let path) = ArchiveName.normalize(Array(name.utf8)) else {
            Issue.record("\(name) refused")
            return
        }
        #expect(String(decoding: path, as: UTF8.self) == expected)
    }

    @Test(arguments: ["../a", "a/../../b", "a/..", "/etc/passwd", ""])
    func refusesNamesThatLeaveTheFolder(_ name: String) {
        guard case .refused = ArchiveName.normalize(Array(name.utf8)) else {
            Issue.record("\(name) accepted")
            return
        }
    }

    /// Both pax forms, as libarchive decodes them: GNU tar's raw `SCHILY.xattr.user.…` and macOS tar's
    /// URL-encoded, base64 `LIBARCHIVE.xattr.…`; a flagged folder's descendants inherit.
    @Test func paxRecordsOfBothFormsCarryTheFlag() throws {
        let tree = try TemporaryTree("archive-pax")
        let value = String(decoding: TemporaryTree.backupExclusionValue, as: UTF8.self)
        let base64 = Data(TemporaryTree.backupExclusionValue).base64EncodedString()
        try Self.tar(
            tree.path("c.tar"),
            [
                ("C/Documents/", nil, [:]),
                (
                    "C/Documents/gnu.txt", "g",
                    ["SCHILY.xattr.user.com.apple.metadata:com_apple_backup_excludeItem": value]
                ),
                (
                    "C/Documents/mac.txt", "m",
                    ["LIBARCHIVE.xattr.com.apple.metadata%3Acom_apple_backup_excludeItem": base64]
                ),
                ("C/Documents/Flagged/", nil, ["LIBARCHIVE.xattr.com.apple.MobileBackup": "AQ=="]),
                ("C/Documents/Flagged/inner.txt", "i", [:]),
                ("C/Documents/plain.txt", "p", [:]),
                ("C/Library/Preferences/", nil, [:]),
            ])
        let input = try ArchiveInput.read(path: tree.path("c.tar"))
        let inventory = input.inventory
        #expect(try Self.entry(inventory, "Documents/gnu.txt").evidence == .xattr)
        #expect(try Self.entry(inventory, "Documents/mac.txt").evidence == .xattr)
        #expect(try Self.entry(inventory, "Documents/Flagged").evidence == .legacyXattr)
        #expect(try Self.entry(inventory, "Documents/Flagged/inner.txt").evidence == .ancestor)
        #expect(try Self.entry(inventory, "Documents/plain.txt").backup == .included)
        #expect(inventory.evidence.entriesWithAttributes == 3)
        #expect(input.container.layout == .bare)
        #expect(input.container.archive?.folder == "C")
    }

    /// Older macOS tar stores `._name` members beside their files: paired as on disk, transport not data.
    @Test func sidecarMembersBesideTheirFiles() throws {
        let tree = try TemporaryTree("archive-sidecar")
        let latin1 = AppleDoubleBuilder.sidecar(attributes: [
            ("com.apple.metadata:com_apple_backup_excludeItem", TemporaryTree.backupExclusionValue)
        ])
        .map { String(UnicodeScalar($0)) }.joined()
        try Self.tar(
            tree.path("c.tar"),
            [
                ("Documents/a.txt", "a", [:]),
                ("Documents/._a.txt", latin1, [:]),
                ("Documents/._gone.txt", latin1, [:]),
                ("Library/Preferences/", nil, [:]),
            ])
        let inventory = try ArchiveInput.read(path: tree.path("c.tar")).inventory
        #expect(try Self.entry(inventory, "Documents/a.txt").evidence == .appleDouble)
        let carrier = try Self.entry(inventory, "Documents/._a.txt")
        #expect(carrier.flags.contains(.transportArtefact))
        #expect(carrier.kind == .appleDouble)
        #expect(
            inventory.issues.contains { $0.reason == .unpairedSidecar && $0.path == Array("Documents/._gone.txt".utf8) }
        )
        #expect(inventory.evidence.appleDoubleSidecars == 2)
    }

    /// Duplicate sets come from a second pass that hashes as the archive streams: equal sizes with different
    /// content are no duplicates.
    @Test func duplicatesHashedAsTheArchiveStreams() throws {
        let tree = try TemporaryTree("archive-duplicates")
        let one = String(repeating: "x", count: 5_000)
        let other = String(repeating: "x", count: 4_999) + "y"
        try Self.tar(
            tree.path("c.tgz"),
            [
                ("Documents/one.bin", one, [:]), ("Documents/two.bin", one, [:]), ("Documents/other.bin", other, [:]),
                ("Library/Preferences/", nil, [:]),
            ])
        let input = try ArchiveInput.read(path: tree.path("c.tgz"))
        let search = try input.findDuplicates(minimumBytes: 1)
        #expect(search.sets.count == 1)
        let paths = search.sets.first.map {
            $0.members.map { String(decoding: input.inventory.path($0), as: UTF8.self) }
        }
        #expect(paths == ["Documents/one.bin", "Documents/two.bin"])
    }

    /// A wrapper folder around the package (one level) is looked through; two are not.
    @Test func onePackageInsideOneWrapper() throws {
        let tree = try TemporaryTree("archive-wrapper")
        let info =
            "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.example.w</string></dict></plist>"
        try Self.tar(
            tree.path("one.tar"),
            [
                ("Export/X.xcappdata/AppDataInfo.plist", info, [:]),
                ("Export/X.xcappdata/AppData/Documents/a", "a", [:]),
                ("Export/X.xcappdata/AppData/Library/Caches/", nil, [:]), ("Export/.DS_Store", "ds", [:]),
            ])
        let input = try ArchiveInput.read(path: tree.path("one.tar"))
        #expect(input.container.layout == .xcappdata)
        #expect(input.container.bundleIdentifier == "com.example.w")
        #expect(input.container.archive?.folder == "Export/X.xcappdata")
        try Self.tar(
            tree.path("two.tar"),
            [("A/B/X.xcappdata/AppDataInfo.plist", info, [:]), ("A/B/X.xcappdata/AppData/Documents/a", "a", [:])])
        #expect(throws: ScanError.self) { try ArchiveInput.read(path: tree.path("two.tar")) }
    }
}

extension ArchiveInputTests {
    /// A hard link stored in a tar counts its bytes once, under the smaller path, as the walk counts an inode.
    @Test func hardLinksCountOnce() throws {
        let tree = try TemporaryTree("archive-hardlink")
        let script = """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as t:
                for name in ["Documents/", "Library/Preferences/"]:
                    info = tarfile.TarInfo(name); info.type = tarfile.DIRTYPE; t.addfile(info)
                info = tarfile.TarInfo("Documents/b.bin"); info.size = 5000; t.addfile(info, io.BytesIO(b"z" * 5000))
                link = tarfile.TarInfo("Documents/a.bin"); link.type = tarfile.LNKTYPE; link.linkname = "Documents/b.bin"; t.addfile(link)
            """
        try Self.python(script, [tree.path("c.tar")])
        let inventory = try ArchiveInput.read(path: tree.path("c.tar")).inventory
        let first = try Self.entry(inventory, "Documents/a.bin")
        let second = try Self.entry(inventory, "Documents/b.bin")
        #expect(first.apparentBytes == 5000 && second.apparentBytes == 5000)
        #expect(first.flags.contains(.hardLinked) && !first.flags.contains(.hardLinkDuplicate))
        #expect(second.flags.contains(.hardLinkDuplicate))
        #expect(inventory.totals.onDisk.apparentBytes == 5000)
    }

    /// A hard link whose target is absolute or climbs out names nothing the archive holds: an issue says so,
    /// where it once became a silent empty file.
    @Test func hardLinksOutOfTheTreeAreIssuesNotEmptyFiles() throws {
        let tree = try TemporaryTree("archive-hardlink-out")
        let script = """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as t:
                for name in ["Documents/", "Library/Preferences/"]:
                    info = tarfile.TarInfo(name); info.type = tarfile.DIRTYPE; t.addfile(info)
                for name, target in [("Documents/passwd", "/etc/passwd"), ("Documents/up", "../../secret"), ("Documents/root", ".")]:
                    link = tarfile.TarInfo(name); link.type = tarfile.LNKTYPE; link.linkname = target; t.addfile(link)
            """
        try Self.python(script, [tree.path("c.tar")])
        let inventory = try ArchiveInput.read(path: tree.path("c.tar")).inventory
        for (path, words) in [
            ("Documents/passwd", "absolute"), ("Documents/up", "`..`"), ("Documents/root", "root folder"),
        ] {
            #expect(try Self.entry(inventory, path).flags.contains(.unreadable), "\(path)")
            let issue = inventory.issues.first { $0.path == Array(path.utf8) }
            #expect(
                issue?.detail.contains("hard link") == true && issue?.detail.contains(words) == true,
                "\(path): \(String(describing: issue))")
        }
    }

    /// Issue 22, fault 3: a small `.tar.bz2` of many concatenated streams whose entry declares a terabyte would keep
    /// the audit busy for an hour while the entry is skipped; it is refused at that entry's header instead, with
    /// the limit named. A real export that expands as much as deflate can (1,032 times) still reads.
    @Test func aDecompressionBombIsRefusedAtItsHeader() throws {
        let tree = try TemporaryTree("archive-bomb")
        let script = """
            import bz2, sys, tarfile
            info = tarfile.TarInfo("Documents/huge.bin"); info.size = 1 << 40
            header = tarfile.TarInfo("Library/Preferences/"); header.type = tarfile.DIRTYPE
            head = header.tobuf(tarfile.GNU_FORMAT) + info.tobuf(tarfile.GNU_FORMAT)
            zeros = bz2.compress(bytes(1 << 20))
            with open(sys.argv[1], "wb") as out:
                out.write(bz2.compress(head))
                for _ in range(1024): out.write(zeros)
            """
        try Self.python(script, [tree.path("bomb.tar.bz2")])
        #expect {
            _ = try ArchiveInput.read(path: tree.path("bomb.tar.bz2"))
        } throws: { error in
            "\(error)".contains("decompression bomb") && "\(error)".contains("Documents/huge.bin")
                && "\(error)".contains("\(ArchiveLimits.maxExpansion) times")
        }

        // As much expansion as deflate gives: 64 MiB of zeros in a gzip of about 64 KiB.
        let zeros = """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w:gz") as t:
                for name in ["Documents/", "Library/", "tmp/"]:
                    d = tarfile.TarInfo(name); d.type = tarfile.DIRTYPE; t.addfile(d)
                info = tarfile.TarInfo("Documents/zeros.bin"); info.size = 64 << 20
                t.addfile(info, io.BytesIO(bytes(64 << 20)))
            """
        try Self.python(zeros, [tree.path("zeros.tar.gz")])
        let inventory = try ArchiveInput.read(path: tree.path("zeros.tar.gz")).inventory
        #expect(try Self.entry(inventory, "Documents/zeros.bin").apparentBytes == 64 << 20)
    }

    /// The content checks read what the first pass kept (no second pass), and find what a second pass over an
    /// archive read without capture finds: plists and logs kept in memory, SQLite stores in a private folder.
    @Test func contentKeptByTheFirstPassIsWhatASecondPassWouldRead() throws {
        let tree = try TemporaryTree("archive-capture")
        let script = """
            import io, plistlib, sqlite3, sys, tarfile, os
            db = os.path.join(os.path.dirname(sys.argv[1]), "Model.sqlite")
            c = sqlite3.connect(db); c.execute("CREATE TABLE ZUSER (ZNAME TEXT, ZPASSWORD TEXT)")
            c.execute("INSERT INTO ZUSER VALUES ('a', 'hunter2hunter2')"); c.commit(); c.close()
            files = {
                "Library/Preferences/com.example.plist": plistlib.dumps({"password": "S3cretPass!"}, fmt=plistlib.FMT_BINARY),
                "Library/Application Support/net.log": ("x" * 200 + "\\nAuthorization: Bearer abcdefghijklmnopqrstuvwxyz012345\\n").encode(),
                "Library/Application Support/Model.sqlite": open(db, "rb").read(),
                "Documents/photo.jpg": bytes([0xFF, 0xD8, 0xFF, 0xE0]) + bytes(100),
            }
            with tarfile.open(sys.argv[1], "w:gz") as t:
                for name in ["Documents/", "Library/", "tmp/"]:
                    d = tarfile.TarInfo(name); d.type = tarfile.DIRTYPE; t.addfile(d)
                for name, data in files.items():
                    info = tarfile.TarInfo(name); info.size = len(data); t.addfile(info, io.BytesIO(data))
            """
        try Self.python(script, [tree.path("c.tar.gz")])
        let captured = try ArchiveInput.read(path: tree.path("c.tar.gz"), capturingContent: true)
        #expect(captured.kept.count == 3, "the plist, the log and the store; not the photo")
        #expect(
            captured.kept.values.contains { if case .file = $0 { true } else { false } }, "the store is kept as a file")
        let scratch = try #require(captured.scratch?.path)
        let fromCapture = try captured.contentPass().items
        let fromSecondPass = try ArchiveInput.read(path: tree.path("c.tar.gz")).contentPass().items
        #expect(fromCapture.map(\.place).sorted() == ["column ZUSER.ZPASSWORD", "key password", "line 2"])
        #expect(fromCapture.map(\.place).sorted() == fromSecondPass.map(\.place).sorted())
        #expect(FileManager.default.fileExists(atPath: scratch))
        _ = consume captured
        #expect(!FileManager.default.fileExists(atPath: scratch), "the kept files go with the input")
    }

    /// A store whose newest rows are only in its `-wal` reads the same from an archive as from the folder it was
    /// packed from: the `-wal` is kept with the store and read with it, not reported as `walNotRead`.
    @Test func aStoreIsReadWithItsWALAsInTheFolder() throws {
        let tree = try TemporaryTree("archive-wal")
        let script = """
            import os, shutil, sqlite3, sys, tarfile
            \(walOnlyStorePython)
            root = sys.argv[1]
            for name in ["Documents", "tmp", "Library/Application Support"]: os.makedirs(os.path.join(root, name))
            wal_only_store(root + "/Library/Application Support/Model.sqlite")
            with tarfile.open(sys.argv[2], "w:gz") as t:
                for name in sorted(os.listdir(root)): t.add(os.path.join(root, name), arcname=name)
            """
        try Self.python(script, [tree.path("c"), tree.path("c.tar.gz")])
        let folder = ContentInspector(root: tree.path("c"), inventory: try InventoryScanner.scan(root: tree.path("c")))
            .run()
        let archive = try ArchiveInput.read(path: tree.path("c.tar.gz"), capturingContent: true).contentPass()
        for outcome in [folder, archive] {
            #expect(outcome.items.map(\.place) == ["column ZUSER.ZPASSWORD"])
            #expect(outcome.coverage.skipped[.walNotRead] == nil)
            #expect(outcome.issues.isEmpty)
        }
    }

    /// A `.tar.gz` of `count` logs in Library/Caches/logs, each its `line` (with the log's number) 5,000 times; the
    /// last starts with a bearer token, on its line 1.
    static func logsArchive(_ path: String, count: Int, line: String) throws {
        let script = """
            import io, sys, tarfile
            count, line = int(sys.argv[2]), sys.argv[3] + "\\n"
            with tarfile.open(sys.argv[1], "w:gz") as t:
                for name in ["Documents/", "Library/", "tmp/"]:
                    d = tarfile.TarInfo(name); d.type = tarfile.DIRTYPE; t.addfile(d)
                for index in range(count):
                    body = (line % index).encode() * 5000
                    if index == count - 1: body = b"Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345\\n" + body
                    info = tarfile.TarInfo("Library/Caches/logs/%03d.log" % index)
                    info.size = len(body); t.addfile(info, io.BytesIO(body))
            """
        try python(script, [path, "\(count)", line])
    }

    /// Past the memory's bound (32 MiB of kept text) what the first pass keeps goes to files of its own: every log is
    /// still read from the first pass, none by a second, and a secret in the last one is found. Each log says
    /// "session", a trigger, so that none is passed as clean in the stream.
    @Test func whatIsKeptPastTheMemoryBoundIsSpilledNotReadAgain() throws {
        let tree = try TemporaryTree("archive-spill")
        try Self.logsArchive(tree.path("s.tar.gz"), count: 560, line: "session line %d")
        let captured = try ArchiveInput.read(path: tree.path("s.tar.gz"), capturingContent: true)
        #expect(captured.kept.count == 560, "every log kept by the first pass")
        let spilled = captured.kept.values.filter { if case .file = $0 { true } else { false } }
        #expect(spilled.count > 0 && spilled.count < 560, "those past 32 MiB in files, the rest in memory")
        let outcome = try captured.contentPass()
        #expect(outcome.coverage.inspected[.textFile]?.files == 560)
        #expect(outcome.items.map(\.place) == ["line 1"])
    }

    /// Text holding none of the fragments every secret contains is scanned as it streams by and not kept, yet counted
    /// read; the one log that may hold a secret is kept and read, and nothing is read by a second pass.
    @Test func cleanTextIsScannedInTheStreamNotKept() throws {
        let tree = try TemporaryTree("archive-clean-text")
        try Self.logsArchive(tree.path("t.tar.gz"), count: 40, line: "GET /feed/%d 200")
        let captured = try ArchiveInput.read(path: tree.path("t.tar.gz"), capturingContent: true)
        let clean = captured.kept.values.filter { if case .scannedClean = $0 { true } else { false } }
        #expect(captured.kept.count == 40 && clean.count == 39)
        let outcome = try captured.contentPass()
        #expect(outcome.coverage.inspected[.textFile]?.files == 40)
        #expect(outcome.coverage.inspected[.textFile]?.bytes == Int64(40 * 65_536))
        #expect(outcome.items.map(\.place) == ["line 1"])
        #expect(outcome.issues.isEmpty)
    }

    /// An entry over 1 MiB (a Realm file here) goes to a file of its own as it streams by, never whole into memory,
    /// and its secrets are found past its first MiB.
    @Test func aLargeEntryIsCopiedToItsOwnFile() throws {
        let tree = try TemporaryTree("archive-large-entry")
        let script = """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w:gz") as t:
                for name in ["Documents/", "Library/", "tmp/"]:
                    d = tarfile.TarInfo(name); d.type = tarfile.DIRTYPE; t.addfile(d)
                body = b"\\0" * 16 + b"T-DB" + b"\\1" * (3 << 20) + b"class_User\\0username\\0password\\0"
                info = tarfile.TarInfo("Documents/default.realm"); info.size = len(body); t.addfile(info, io.BytesIO(body))
            """
        try Self.python(script, [tree.path("r.tar.gz")])
        let captured = try ArchiveInput.read(path: tree.path("r.tar.gz"), capturingContent: true)
        let files = captured.kept.values.filter { if case .file = $0 { true } else { false } }
        #expect(captured.kept.count == 1 && files.count == 1)
        let outcome = try captured.contentPass()
        #expect(outcome.items.count == 1)
        #expect(outcome.coverage.inspected[.realm]?.files == 1)
    }
}

extension ArchiveInputTests {
    /// A bare tree's container-manager plist that is a link is reported, never read, from an archive as from the
    /// folder it was packed from: both go through the folders' one layout rule.
    @Test func aBareTreesLinkedMetadataIsReportedAsInTheFolder() throws {
        let tree = try TemporaryTree("archive-bare-link")
        for folder in ["c/Documents", "c/Library", "c/tmp"] { try tree.mkdir(folder) }
        try tree.symlink("c/.com.apple.mobile_container_manager.metadata.plist", to: "elsewhere.plist")
        let script = """
            import os, sys, tarfile
            with tarfile.open(sys.argv[2], "w") as t:
                for name in sorted(os.listdir(sys.argv[1])): t.add(os.path.join(sys.argv[1], name), arcname=name)
            """
        try Self.python(script, [tree.path("c"), tree.path("c.tar")])
        let folder = try ContainerSource.identify(path: tree.path("c"))
        let archive = try ArchiveInput.read(path: tree.path("c.tar")).container
        for container in [folder, archive] {
            #expect(container.layout == .bare)
            #expect(container.metadata.map(\.path) == [".com.apple.mobile_container_manager.metadata.plist"])
            #expect(container.metadata.first.map { $0.value == nil && $0.problem != nil } == true)
        }
    }
}
