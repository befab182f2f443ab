import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device backup folder stocktake may not open: each command that reads it says which folder and what to do,
/// and writes nothing. Mode 000 stands in for macOS's privacy protection (which refuses with EPERM, mode bits
/// with EACCES: the message is the same but for the errno); as root the binary runs without root's override.
@Suite struct BackupAccessCommandTests {
    static let app = "com.example.notes"

    /// A generated backup moved to `parent/<UDID>` below the fixture's folder, then made unreadable.
    static func lockedBackup(under parent: String) throws -> (fixture: DeviceBackupFixture, path: String) {
        let fixture = try DeviceBackupFixture([
            "records": [DeviceBackupFixture.record("AppDomain-\(Self.app)", "Documents/a.txt", content: "a")]
        ])
        let folder = fixture.tree.path(parent)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/00008110-001A2B3C4D5E6F70"
        try FileManager.default.moveItem(atPath: fixture.path, toPath: path)
        try #require(chmod(path, 0) == 0)
        return (fixture, path)
    }

    @Test func aFinderBackupWithoutFullDiskAccessSaysHowToGrantIt() throws {
        let (fixture, path) = try Self.lockedBackup(under: "home/Library/Application Support/MobileSync/Backup")
        defer { chmod(path, 0o755) }
        let container = try TemporaryTree("container")
        try container.write("Documents/a.txt", string: "a")
        try container.mkdir("Library/Preferences")
        let out = try TemporaryTree("out")
        let runs: [(arguments: [String], directory: String?)] = [
            (["apps", path], nil),
            (["audit", path, "--app", Self.app, "--output", out.path("r")], nil),
            (["audit", path, "--output", out.path("r")], nil),
            (["audit", container.root, "--backup", path, "--output", out.path("r")], nil),
            // Relative: the message still names the whole path, the one to look for in Finder.
            (["apps", "00008110-001A2B3C4D5E6F70"], (path as NSString).deletingLastPathComponent),
        ]
        for run in runs {
            let result = try StocktakeProcess.run(
                run.arguments, currentDirectory: run.directory, withoutFilePermissionOverride: true)
            #expect(result.status == 1, "\(run.arguments): \(result.stderr)")
            #expect(
                result.stderr.contains("cannot open the device backup folder \(path): Permission denied"),
                "\(run.arguments): \(result.stderr)")
            #expect(
                result.stderr.contains("Full Disk Access") && result.stderr.contains("/usr/sbin/cron"),
                "\(run.arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path("r")))
        _ = fixture
    }

    /// A cron job auditing Finder's backups as its inbox: the night fails with the inbox named and what to grant.
    @Test func aNightlyInboxOfFinderBackupsSaysHowToGrantFullDiskAccess() throws {
        let (fixture, path) = try Self.lockedBackup(under: "home/Library/Application Support/MobileSync/Backup")
        defer { chmod(path, 0o755) }
        let inbox = (path as NSString).deletingLastPathComponent
        try #require(chmod(inbox, 0) == 0)
        defer { chmod(inbox, 0o755) }
        let result = try StocktakeProcess.run(
            ["nightly", inbox, fixture.tree.path("reports")], withoutFilePermissionOverride: true)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("the inbox \(inbox): Permission denied"), "\(result.stderr)")
        #expect(
            result.stderr.contains("Full Disk Access") && result.stderr.contains("/usr/sbin/cron"), "\(result.stderr)")
    }

    @Test func anUnreadableBackupElsewhereNamesItWithoutFullDiskAccess() throws {
        let (fixture, path) = try Self.lockedBackup(under: "backups")
        defer { chmod(path, 0o755) }
        for arguments in [["apps", path], ["audit", path, "--app", Self.app]] {
            let result = try StocktakeProcess.run(arguments, withoutFilePermissionOverride: true)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains("cannot open the device backup folder \(path): Permission denied")
                    && result.stderr.contains("read and search access"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Full Disk Access"), "\(result.stderr)")
        }
        _ = fixture
    }
}
