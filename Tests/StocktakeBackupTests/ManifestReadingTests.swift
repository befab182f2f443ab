import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeBackup
@testable import StocktakeSQLite

/// The manifest read back: every record's domain, path, type, size, time and link target as the generator wrote
/// them (an NSKeyedArchiver MBFile per row), and the refusals of what cannot be read.
@Suite struct ManifestReadingTests {
    static let app = "com.example.notes"

    static func fixture() throws -> DeviceBackupFixture {
        try DeviceBackupFixture([
            "records": [
                DeviceBackupFixture.record("AppDomain-\(app)", "Documents", type: "d"),
                [
                    "domain": "AppDomain-\(app)", "path": "Documents/note.txt", "type": "f", "content": "hello notes",
                    "mtime": 1_650_000_000,
                ],
                DeviceBackupFixture.record(
                    "AppDomain-\(app)", "Library/Application Support/store.sqlite", size: 20_000),
                DeviceBackupFixture.record("AppDomain-\(app)", "Library/link", type: "l", target: "/var/mobile/x"),
                DeviceBackupFixture.record("AppDomainGroup-group.\(app).shared", "Library/shared.db", size: 5_000),
                DeviceBackupFixture.record("AppDomainPlugin-\(app).widget", "Library/Preferences/w.plist", size: 300),
                DeviceBackupFixture.record("AppDomainGroup-group.unrelated", "a.txt", size: 7),
                // A row published from a real backup (reference §4.2): its fileID is known.
                DeviceBackupFixture.record(
                    "AppDomainGroup-group.net.whatsapp.WhatsApp.shared", "ChatStorage.sqlite", size: 4096),
                DeviceBackupFixture.record("HomeDomain", "Library/Preferences/com.apple.x.plist", size: 99),
            ]
        ])
    }

    @Test func recordsDecodeAsWritten() throws {
        let backup = try Self.fixture()
        let records = try ManifestDatabase(try BackupFolder.open(backup.path)).appDomainRecords()
            .filter { $0.domain == "AppDomain-\(Self.app)" }
        let byPath = Dictionary(
            uniqueKeysWithValues: records.map { (String(decoding: $0.relativePath, as: UTF8.self), $0) })
        #expect(
            byPath.keys.sorted() == [
                "", "Documents", "Documents/note.txt", "Library/Application Support/store.sqlite", "Library/link",
            ])
        let note = try #require(byPath["Documents/note.txt"])
        #expect(note.type == .file && note.size == 11 && note.modified == 1_650_000_000)
        #expect(note.mode.map { $0 & 0o170000 } == 0o100000)
        #expect(byPath["Documents"]?.type == .directory)
        #expect(byPath["Library/link"]?.type == .symlink)
        #expect(byPath["Library/link"]?.symlinkTarget == Array("/var/mobile/x".utf8))
        #expect(byPath["Library/Application Support/store.sqlite"]?.size == 20_000)
        // The fileID is the SHA-1 of "domain-relativePath" (the real backup's row), and names the content file.
        let real = try ManifestDatabase(try BackupFolder.open(backup.path)).appDomainRecords()
            .filter { $0.domain == "AppDomainGroup-group.net.whatsapp.WhatsApp.shared" }
        #expect(
            real.first { $0.relativePath == Array("ChatStorage.sqlite".utf8) }?.fileID
                == "7c7fba66680ef796b916b067077cc246adacf01d")
        let content = try #require(try BackupFolder.open(backup.path).contentPath(fileID: note.fileID))
        #expect(FileManager.default.contents(atPath: content) == Data("hello notes".utf8))
    }

    @Test func appsListTheAppDomainsWithTheirCompanions() throws {
        let backup = try Self.fixture()
        let read = try DeviceBackup.read(backup.path)
        #expect(read.apps.apps.map(\.bundleIdentifier) == [Self.app])
        let app = try #require(read.apps.app(Self.app))
        let truth = try #require(backup.truth["AppDomain-\(Self.app)"])
        #expect(app.domain.total.files == truth.files && app.domain.total.apparentBytes == truth.bytes)
        #expect(
            app.companions.map(\.name) == [
                "AppDomainGroup-group.\(Self.app).shared", "AppDomainPlugin-\(Self.app).widget",
            ])
        #expect(
            read.apps.unattributed.map(\.name) == [
                "AppDomainGroup-group.net.whatsapp.WhatsApp.shared", "AppDomainGroup-group.unrelated",
            ])
        // Allocation is an estimate: each file rounded up to whole 4 KiB blocks (11 → 4096, 20,000 → 20,480, the link's 0 → 0).
        #expect(app.domain.total.allocatedBytes == 4096 + 20_480)
        #expect(read.apps.nearest(to: "com.example.note") == [Self.app])
        #expect(read.apps.nearest(to: "org.other.thing").isEmpty)
    }

    @Test func inventoryHoldsExactlyTheDomainsRecords() throws {
        let backup = try Self.fixture()
        let read = try DeviceBackup.read(backup.path)
        let (tree, summary) = try read.app(Self.app, role: .input)
        let inventory = ManifestInventory.build(tree: tree, folder: read.folder).inventory
        var paths: [String] = []
        inventory.forEachInPathOrder { index, path in
            if index != inventory.root { paths.append(String(decoding: path, as: UTF8.self)) }
        }
        // "Library" and "Library/Application Support" are not records: the inventory makes them, size 0.
        #expect(
            paths == [
                "Documents", "Documents/note.txt", "Library", "Library/Application Support",
                "Library/Application Support/store.sqlite", "Library/link",
            ])
        let included = try #require(inventory.totals.backup[.included])
        #expect(included.files == summary.app.total.files && included.apparentBytes == summary.app.total.apparentBytes)
        #expect(inventory.totals.onDisk.apparentBytes == summary.app.total.apparentBytes)
        #expect(inventory.entries.allSatisfy { $0.backup == .included && $0.evidence == .deviceBackup })
        let note = try #require(inventory.index(ofPath: Array("Documents/note.txt".utf8)))
        #expect(inventory.entries[Int(note)].kind == .text)
        #expect(inventory.evidence.decidedByDeviceBackup)
        // An absolute link names the device's container by UUID: it escapes (symlink-escape reports it).
        let link = try #require(inventory.index(ofPath: Array("Library/link".utf8)))
        #expect(inventory.entries[Int(link)].flags.contains(.escapesContainer))
    }

    @Test func anUnfinishedBackupIsAnIssue() throws {
        let backup = try DeviceBackupFixture([
            "records": [DeviceBackupFixture.record("AppDomain-a.b", "x", size: 1)], "snapshotState": "uploading",
        ])
        let read = try DeviceBackup.read(backup.path)
        let inventory = ManifestInventory.build(tree: try read.app("a.b", role: .input).tree, folder: read.folder)
            .inventory
        #expect(
            inventory.issues.map(\.detail) == [
                #"the device backup is incomplete (Status.plist SnapshotState "uploading", not "finished"): files missing from it may only not have been copied yet"#
            ])
        let finished = try Self.fixture()
        #expect(try DeviceBackup.read(finished.path).folder.incompleteness == nil)
    }

    @Test func missingAppNamesTheNearest() throws {
        let backup = try Self.fixture()
        let read = try DeviceBackup.read(backup.path)
        #expect(
            throws: BackupError.appNotInBackup(
                path: backup.path, app: "com.example.note", nearest: [Self.app], count: 1)
        ) {
            _ = try read.app("com.example.note", role: .input)
        }
    }

    @Test func refusesEncryptedBackups() throws {
        let flagged = try DeviceBackupFixture([
            "records": [DeviceBackupFixture.record("AppDomain-a.b", "x", size: 1)], "encrypted": true,
        ])
        #expect(throws: BackupError.encrypted(path: flagged.path, reason: "Manifest.plist says IsEncrypted")) {
            _ = try DeviceBackup.read(flagged.path)
        }
        // Manifest.plist lost or lying: a Manifest.db that is ciphertext still says "encrypted".
        let scrambled = try DeviceBackupFixture(["records": [DeviceBackupFixture.record("AppDomain-a.b", "x", size: 1)]]
        )
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }).write(
            to: URL(fileURLWithPath: scrambled.path + "/Manifest.db"))
        #expect(throws: BackupError.encrypted(path: scrambled.path, reason: "Manifest.db is not an SQLite database")) {
            _ = try DeviceBackup.read(scrambled.path)
        }
    }

    @Test func refusesOldMissingAndCorruptManifests() throws {
        let backup = try DeviceBackupFixture(["records": [DeviceBackupFixture.record("AppDomain-a.b", "x", size: 1)]])
        let database = backup.path + "/Manifest.db"
        let original = try Data(contentsOf: URL(fileURLWithPath: database))
        // SQLite's header, then damage: the database cannot be queried.
        try (original.prefix(100) + Data(repeating: 0xEE, count: original.count - 100)).write(
            to: URL(fileURLWithPath: database))
        #expect(throws: BackupError.self) { _ = try DeviceBackup.read(backup.path) }
        do {
            _ = try DeviceBackup.read(backup.path)
        } catch {
            guard case .corruptManifest = error else {
                Issue.record("expected corruptManifest, got \(error)")
                return
            }
        }
        try FileManager.default.removeItem(atPath: database)
        #expect(throws: BackupError.missingManifest(path: backup.path)) { _ = try DeviceBackup.read(backup.path) }
        try Data([0x6D, 0x62, 0x64, 0x62, 5, 0]).write(to: URL(fileURLWithPath: backup.path + "/Manifest.mbdb"))
        #expect(throws: BackupError.mbdbUnsupported(path: backup.path)) { _ = try DeviceBackup.read(backup.path) }
    }

    @Test func linksEscapeWhenAbsoluteOrClimbingAboveTheRoot() {
        // From depth 2 (a link in Library/WebKit/): two levels up is the root, three is outside.
        #expect(!ManifestInventory.escapes(Array("../../Documents/x".utf8), from: 2))
        #expect(ManifestInventory.escapes(Array("../../../elsewhere".utf8), from: 2))
        #expect(!ManifestInventory.escapes(Array("./sibling".utf8), from: 0))
        #expect(ManifestInventory.escapes(Array("/var/mobile/Containers/Data/Application/X/Documents".utf8), from: 1))
    }

    @Test func mbfileDecodingRefusesWhatIsNoArchive() {
        #expect(throws: MBFile.Failure.self) { _ = try MBFile.decode(Array("not a plist".utf8)) }
        #expect(throws: MBFile.Failure.self) {
            _ = try MBFile.decode(Array("bplist00".utf8) + [UInt8](repeating: 0, count: 40))
        }
    }

    @Test func immutableURIKeepsOddNamesInThePath() {
        #expect(
            SQLiteConnection.immutableURI("/tmp/a b?c#d%e/Manifest.db")
                == "file:/tmp/a%20b%3Fc%23d%25e/Manifest.db?mode=ro&immutable=1")
    }
}
