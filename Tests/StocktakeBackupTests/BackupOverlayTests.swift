import StocktakeModel
import Testing

@testable import StocktakeBackup

/// A backup laid over a walked export: in it → included; not in it → excludedBySystem (Caches, tmp) or excluded;
/// every entry's evidence the backup; disagreements with the export's own prediction marked.
@Suite struct BackupOverlayTests {
    static func record(_ path: String, _ type: EntryType = .file) -> ManifestRecord {
        ManifestRecord(
            fileID: "", domain: "AppDomain-a.b", relativePath: Array(path.utf8), type: type, size: 1, mode: nil,
            modified: 0, symlinkTarget: nil)
    }

    /// Files the backup records with protection class None are named; the default class, folders and files the
    /// export lacks are not.
    @Test func filesWithoutDataProtection() throws {
        var builder = InventoryBuilder()
        builder.add("Documents/open.db", apparentBytes: 10)
        builder.add("Documents/default.db", apparentBytes: 10)
        let inventory = builder.build()
        func record(_ path: String, _ type: EntryType, _ protection: UInt8) -> ManifestRecord {
            ManifestRecord(
                fileID: "", domain: "AppDomain-a.b", relativePath: Array(path.utf8), type: type, size: 1, mode: nil,
                modified: 0,
                symlinkTarget: nil, protectionClass: protection)
        }
        let overlay = BackupOverlay(
            tree: DomainTree([
                record("", .directory, 4), record("Documents", .directory, 4), record("Documents/open.db", .file, 4),
                record("Documents/default.db", .file, 3), record("Documents/gone.db", .file, 4),
            ]))
        let unprotected = overlay.apply(to: inventory).unprotected
        #expect(unprotected == [try #require(inventory.index(ofPath: Array("Documents/open.db".utf8)))])
    }

    @Test func statesComeFromTheBackup() throws {
        var builder = InventoryBuilder()
        builder.add("Documents/kept.txt", apparentBytes: 10, backup: .included, evidence: .noFlag)
        builder.add("Documents/unknown.txt", apparentBytes: 10)
        builder.add("Documents/flagged-but-backed-up.txt", apparentBytes: 10, backup: .excluded, evidence: .xattr)
        builder.add("Library/Application Support/predicted.db", apparentBytes: 10, backup: .included, evidence: .noFlag)
        builder.add("Library/Application Support/lost-flag.db", apparentBytes: 10)
        builder.add("Library/Caches/feed.json", apparentBytes: 10)
        builder.add("tmp/upload.part", apparentBytes: 10)
        builder.add("Documents/._kept.txt", apparentBytes: 4096, flags: .transportArtefact)
        let inventory = builder.build()
        let overlay = BackupOverlay(
            tree: DomainTree([
                Self.record("", .directory), Self.record("Documents", .directory), Self.record("Documents/kept.txt"),
                Self.record("Documents/unknown.txt"), Self.record("Documents/flagged-but-backed-up.txt"),
                Self.record("Library", .directory),
                Self.record("Documents/only-in-backup.txt"),
            ]))
        let (result, notInExport, _) = overlay.apply(to: inventory)
        func entry(_ path: String) throws -> Entry {
            result.entries[Int(try #require(result.index(ofPath: Array(path.utf8))))]
        }
        let expected: [(String, BackupState, Bool)] = [
            ("Documents/kept.txt", .included, false),
            ("Documents/unknown.txt", .included, false),
            ("Documents/flagged-but-backed-up.txt", .included, true),
            ("Library/Application Support/predicted.db", .excluded, true),
            ("Library/Application Support/lost-flag.db", .excluded, false),
            ("Library/Caches/feed.json", .excludedBySystem, false),
            ("tmp/upload.part", .excludedBySystem, false),
            ("Library", .included, false),
            ("Library/Caches", .excludedBySystem, false),
        ]
        for (path, state, disagrees) in expected {
            let found = try entry(path)
            #expect(found.backup == state, "\(path)")
            #expect(found.evidence == .deviceBackup, "\(path)")
            #expect(found.flags.contains(.backupDisagrees) == disagrees, "\(path)")
        }
        // The export's sidecar is no file of the device's: left as it was.
        #expect(try entry("Documents/._kept.txt").evidence == .noEvidence)
        #expect(notInExport == 1)
        #expect(result.evidence.decidedByDeviceBackup)
        // Sizes stay the export's.
        #expect(result.totals.onDisk == inventory.totals.onDisk)
    }
}
