import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeBackup
@testable import StocktakeSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Backups no backup tool writes, made by altering a generated one: each is refused with a message naming the
/// record and the limit, or read with what cannot be true left out and listed as an issue.
@Suite struct HostileBackupTests {
    static let app = "a.b"
    static let domain = "AppDomain-a.b"

    static func fixture(_ records: [[String: Any]] = []) throws -> DeviceBackupFixture {
        try DeviceBackupFixture([
            "records": [
                DeviceBackupFixture.record(domain, "Documents", type: "d"),
                DeviceBackupFixture.record(domain, "Documents/a.txt", size: 10),
            ] + records
        ])
    }

    /// A content file whose `<xx>/` folder is missing is refused as missing, to its first reader as to later ones.
    @Test func aMissingContentFolderIsRefusedAsMissing() throws {
        let backup = try Self.fixture()
        try? FileManager.default.removeItem(atPath: backup.path + "/ee")
        let content = BackupContent(try BackupFolder.open(backup.path))
        for _ in 0..<2 {
            let error = #expect(throws: (any Error).self) {
                _ = try content.file(fileID: String(repeating: "e", count: 40))
            }
            let text = error.map { "\($0)" } ?? ""
            #expect(text.contains(String(cString: strerror(ENOENT))), "\(text)")
        }
    }

    /// Alters the fixture's `Manifest.db`, one statement each (the reader opens it read-only; this is the attacker).
    static func alter(_ backup: DeviceBackupFixture, _ statements: String..., values: [SQLiteValue] = []) throws {
        let connection = try SQLiteConnection(path: backup.path + "/Manifest.db", create: false)
        for sql in statements { try connection.execute(sql, values) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    static func refusal(_ path: String) -> String {
        do {
            _ = try DeviceBackup.read(path)
            return "read without a refusal"
        } catch {
            return error.description
        }
    }

    /// A binary plist whose top array holds `references` references to one data object of `dataBytes` bytes:
    /// a file of about `references + dataBytes` bytes that decodes, copied per reference, to their product.
    static func sharedReferenceBomb(references: Int, dataBytes: Int) -> [UInt8] {
        func count(_ marker: UInt8, _ value: Int) -> [UInt8] { [marker | 0x0F, 0x12] + bigEndian(UInt64(value), 4) }
        var bytes = Array("bplist00".utf8)
        let arrayOffset = bytes.count
        bytes += count(0xA0, references) + [UInt8](repeating: 1, count: references)
        let dataOffset = bytes.count
        bytes += count(0x40, dataBytes) + [UInt8](repeating: 0x41, count: dataBytes)
        let table = bytes.count
        bytes += bigEndian(UInt64(arrayOffset), 4) + bigEndian(UInt64(dataOffset), 4)
        bytes += [0, 0, 0, 0, 0, 0, 4, 1] + bigEndian(2, 8) + bigEndian(0, 8) + bigEndian(UInt64(table), 8)
        return bytes
    }

    static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    // MARK: - Fault 1: shared references in the backup's plists

    @Test func aManifestPlistOrMBFileSharingOneLargeObjectIsRefusedByItsDecodedBytes() throws {
        // 20,000 references to one 60 KB object: 80 KB on disk, 1.2 GB copied per reference.
        let bomb = Self.sharedReferenceBomb(references: 20_000, dataBytes: 60_000)
        let plist = try Self.fixture()
        try Data(bomb).write(to: URL(fileURLWithPath: plist.path + "/Manifest.plist"))
        let plistRefusal = Self.refusal(plist.path)
        #expect(
            plistRefusal.contains("Manifest.plist") && plistRefusal.contains("decodes to more than"), "\(plistRefusal)")
        #expect(
            plistRefusal.contains("bytes of strings and data, the limit for a \(bomb.count)-byte file"),
            "\(plistRefusal)")

        let row = try Self.fixture()
        try Self.alter(row, "UPDATE Files SET file = X'\(Self.hex(bomb))' WHERE relativePath = 'Documents/a.txt'")
        let rowRefusal = Self.refusal(row.path)
        #expect(
            rowRefusal.contains("its MBFile is not a property list this reader accepts")
                && rowRefusal.contains("decodes to more than"), "\(rowRefusal)")
    }

    // MARK: - Fault 2: deep paths

    @Test func aRelativePathLongerThanPathMaxIsRefused() throws {
        let backup = try Self.fixture()
        let deep = String(repeating: "a/", count: 99_999) + "a"
        try Self.alter(
            backup, "UPDATE Files SET relativePath = ? WHERE relativePath = 'Documents/a.txt'", values: [.text(deep)])
        let refusal = Self.refusal(backup.path)
        #expect(
            refusal.contains("has a relativePath of 199999 bytes, more than the 1024 bytes iOS allows a path"),
            "\(refusal)")
    }

    @Test func a100000ComponentPathBuildsALinearTreeAndTheInventoryStopsAtMaxDepth() throws {
        let backup = try Self.fixture()
        let folder = try BackupFolder.open(backup.path)
        let deep = Array((String(repeating: "d/", count: 99_999) + "leaf").utf8)
        let record = ManifestRecord(
            fileID: String(repeating: "0", count: 40), domain: Self.domain, relativePath: deep, type: .file, size: 5,
            mode: nil,
            modified: 0, symlinkTarget: nil)
        let tree = DomainTree([record])
        #expect(tree.nodes.count == 100_001 && tree.records.count == 1 && tree.issues.isEmpty)
        let inventory = ManifestInventory.build(tree: tree, folder: folder, maxDepth: 10).inventory
        // As a walk with --max-depth 10: eleven levels listed, the deepest folder unreadable, one tooDeep issue.
        #expect(inventory.entries.count == 1 + 11)
        #expect(inventory.issues.map(\.reason) == [.tooDeep])
        #expect(inventory.entries.last?.flags.contains(.unreadable) == true)
    }

    // MARK: - Fault 4: the schema of Manifest.db

    @Test func aViewATriggerOrAnUnknownSchemaIsRefused() throws {
        let view = try Self.fixture()
        try Self.alter(view, "ALTER TABLE Files RENAME TO Rows", "CREATE VIEW Files AS SELECT * FROM Rows")
        #expect(Self.refusal(view.path).contains("its Manifest.db has a view `Files`"), "\(Self.refusal(view.path))")

        // An endless recursive view: refused by its schema, before any row is asked for.
        let endless = try Self.fixture()
        try Self.alter(
            endless, "ALTER TABLE Files RENAME TO Rows",
            """
            CREATE VIEW Files AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
                SELECT printf('%040d', i) AS fileID, 'AppDomain-a.b' AS domain, i AS relativePath, 1 AS flags, zeroblob(1000000) AS file FROM n
            """)
        #expect(Self.refusal(endless.path).contains("has a view `Files`"))

        let trigger = try Self.fixture()
        try Self.alter(trigger, "CREATE TRIGGER noisy AFTER INSERT ON Files BEGIN SELECT 1; END")
        #expect(Self.refusal(trigger.path).contains("its Manifest.db has a trigger `noisy`"))

        let columns = try Self.fixture()
        try Self.alter(columns, "ALTER TABLE Files ADD COLUMN extra TEXT")
        #expect(
            Self.refusal(columns.path).contains(
                "has the columns (fileID, domain, relativePath, flags, file, extra), not (fileID, domain, relativePath, flags, file)"
            ))

        let none = try Self.fixture()
        try Self.alter(none, "ALTER TABLE Files RENAME TO Other")
        #expect(Self.refusal(none.path).contains("its Manifest.db has no table `Files`"))
        #expect(Self.refusal(none.path).hasPrefix("refusing the device backup"))
    }

    @Test func anOversizedMBFileIsRefusedByItsLength() throws {
        let backup = try Self.fixture()
        try Self.alter(backup, "UPDATE Files SET file = zeroblob(5000000) WHERE relativePath = 'Documents/a.txt'")
        let refusal = Self.refusal(backup.path)
        #expect(refusal.contains("has an MBFile of 5000000 bytes, more than the 1048576-byte limit"), "\(refusal)")
    }

    // MARK: - Fault 10: work bounded by steps, not by a clock

    @Test func aStepLimitInterruptsAnEndlessQuery() throws {
        let tree = try TemporaryTree("steps")
        let connection = try SQLiteConnection(path: tree.path("steps.db"), create: true)
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
        #expect {
            try connection.withStepLimit(100_000) { try connection.rows(endless) { $0.int(0) } }
        } throws: { error in
            (error as? SQLiteError)?.kind == .interrupted
        }
        // Outside the limit the connection runs again: a bounded query finishes.
        let counted = try connection.withStepLimit(10_000_000) {
            try connection.rows(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT count(*) FROM n"
            ) { $0.int(0) }
        }
        #expect(counted == [1000])
    }

    // MARK: - Fault 11: paths taken as given

    @Test func climbingAndAbsolutePathsAreIssuesAndDuplicatesCountOnce() throws {
        let backup = try Self.fixture([
            DeviceBackupFixture.record(Self.domain, "../../../../etc/passwd", size: 100),
            DeviceBackupFixture.record(Self.domain, "/etc/shadow", size: 200),
            DeviceBackupFixture.record(Self.domain, "Documents/./x", size: 300),
        ])
        try Self.alter(
            backup,
            "INSERT INTO Files SELECT ?, domain, relativePath, flags, file FROM Files WHERE relativePath = 'Documents/a.txt'",
            values: [.text(String(repeating: "f", count: 40))])
        let read = try DeviceBackup.read(backup.path)
        let (tree, summary) = try read.app(Self.app, role: .input)
        // The listing, the report's deviceBackup and the inventory's totals agree: one file of 10 bytes.
        #expect(summary.app.total.files == 1 && summary.app.total.apparentBytes == 10)
        #expect(read.apps.app(Self.app)?.domain.total.files == 1)
        let inventory = ManifestInventory.build(tree: tree, folder: read.folder).inventory
        var paths: [String] = []
        inventory.forEachInPathOrder { index, path in
            if index != inventory.root { paths.append(String(decoding: path, as: UTF8.self)) }
        }
        #expect(paths == ["Documents", "Documents/a.txt"])
        #expect(inventory.totals.backup[.included]?.files == 1)
        let details = inventory.issues.map(\.detail)
        #expect(details.count == 4)
        let issuePaths = inventory.issues.map(\.path)
        #expect(
            issuePaths == issuePaths.sorted { $0.lexicographicallyPrecedes($1) },
            "issues in path order, as for every input")
        #expect(details.contains { $0.contains("its relativePath holds `..`") })
        #expect(details.contains { $0.contains("its relativePath is absolute") })
        #expect(details.contains { $0.contains("holds a `.` component") })
        #expect(details.contains { $0.contains("stored more than once in Manifest.db") })
    }

    // MARK: - Fault 12: content read through a linked hash folder

    @Test func aLinkedHashFolderIsNotFollowedForSniffing() throws {
        let pdf = "%PDF-1.4\n%hello\n"
        let backup = try Self.fixture([["domain": Self.domain, "path": "Documents/blob", "type": "f", "content": pdf]])
        let read = try DeviceBackup.read(backup.path)
        let blob = try #require(
            read.app(Self.app, role: .input).tree.records.first { $0.relativePath == Array("Documents/blob".utf8) })
        func kind() throws -> ContentKind {
            let again = try DeviceBackup.read(backup.path)
            let inventory = ManifestInventory.build(
                tree: try again.app(Self.app, role: .input).tree, folder: again.folder
            ).inventory
            let index = try #require(inventory.index(ofPath: Array("Documents/blob".utf8)))
            return inventory.entries[Int(index)].kind
        }
        #expect(try kind() == .pdf)
        // The hash folder moved outside the backup and linked back: the same bytes, reached only through a link.
        let outside = try TemporaryTree("outside")
        let hashFolder = backup.path + "/" + String(blob.fileID.prefix(2))
        try FileManager.default.moveItem(atPath: hashFolder, toPath: outside.path("elsewhere"))
        try FileManager.default.createSymbolicLink(atPath: hashFolder, withDestinationPath: outside.path("elsewhere"))
        #expect(FileManager.default.contents(atPath: hashFolder + "/" + blob.fileID) == Data(pdf.utf8))
        #expect(try kind() == .unknown)
    }

    /// The content checks find a file's bytes by the same rule: never through a linked hash folder (a content
    /// file that is itself a link is refused by the reader's open, as any link in a container is).
    @Test func contentChecksNeverReadThroughALink() throws {
        let backup = try Self.fixture([
            ["domain": Self.domain, "path": "Documents/a.log", "type": "f", "content": "one"]
        ])
        let read = try DeviceBackup.read(backup.path)
        let (inventory, content) = ManifestInventory.build(
            tree: try read.app(Self.app, role: .input).tree, folder: read.folder)
        let a = try #require(inventory.index(ofPath: Array("Documents/a.log".utf8)))
        let pathA = try #require(content.contentPath(of: a))
        #expect(FileManager.default.contents(atPath: pathA) == Data("one".utf8))
        #expect(content.contentPath(of: inventory.root) == nil, "a folder has no content file")
        let outside = try TemporaryTree("outside-content")
        let hashFolder = (pathA as NSString).deletingLastPathComponent
        try FileManager.default.moveItem(atPath: hashFolder, toPath: outside.path("moved"))
        try FileManager.default.createSymbolicLink(atPath: hashFolder, withDestinationPath: outside.path("moved"))
        #expect(content.contentPath(of: a) == nil)
    }

    // MARK: - Fault 14: a Manifest.db that is no regular file

    @Test func aManifestDatabaseThatIsALinkAFIFOOrAFolderSaysWhatItIs() throws {
        let backup = try Self.fixture()
        let database = backup.path + "/Manifest.db"
        let outside = try TemporaryTree("outside")
        try FileManager.default.moveItem(atPath: database, toPath: outside.path("Manifest.db"))
        try FileManager.default.createSymbolicLink(atPath: database, withDestinationPath: outside.path("Manifest.db"))
        #expect(
            throws: BackupError.manifestNotAFile(
                path: backup.path, refusal: "it is a symbolic link, which is never followed")
        ) {
            _ = try DeviceBackup.read(backup.path)
        }
        try FileManager.default.removeItem(atPath: database)
        #expect(mkfifo(database, 0o644) == 0)
        #expect(
            throws: BackupError.manifestNotAFile(
                path: backup.path, refusal: "it is a FIFO (named pipe), not a regular file")
        ) {
            _ = try DeviceBackup.read(backup.path)
        }
        try FileManager.default.removeItem(atPath: database)
        try FileManager.default.createDirectory(atPath: database, withIntermediateDirectories: false)
        let refusal = Self.refusal(backup.path)
        #expect(refusal.contains("its Manifest.db cannot be read: it is a folder, not a file"), "\(refusal)")
        #expect(!refusal.contains("has no Manifest.db"))
    }
}
