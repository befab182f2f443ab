import Testing

@testable import StocktakeBackup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A backup folder the system will not open: the message names the folder and, where macOS's privacy protection
/// guards Finder's backups, how to grant Full Disk Access.
@Suite struct BackupAccessTests {
    static let finder = "/Users/ana/Library/Application Support/MobileSync/Backup/00008110-001A2B3C4D5E6F70"

    @Test(arguments: [EPERM, EACCES])
    func finderBackupsSayHowToGrantFullDiskAccess(code: Int32) {
        for path in [
            Self.finder, "/Users/ana/Library/Application Support/MobileSync",
            "/Users/ana/library/APPLICATION SUPPORT/mobilesync/Backup",
        ] {
            let message = BackupError.accessRefused(path: path, code: code).description
            #expect(
                message.hasPrefix("cannot open the device backup folder \(path): \(String(cString: strerror(code)))"))
            #expect(message.contains("(errno \(code))"), "\(message)")
            #expect(
                message.contains("System Settings > Privacy & Security > Full Disk Access")
                    && message.contains("the terminal app") && message.contains("/usr/sbin/cron"), "\(message)")
        }
    }

    @Test func otherFoldersAreAMatterOfPermissionsOnly() {
        for path in [
            "/srv/backups/00008110", "/Users/ana/Library/Application Support/MobileSyncCopy/Backup/x",
            "/Users/ana/Desktop/MobileSync/Backup",
        ] {
            let message = BackupError.accessRefused(path: path, code: EACCES).description
            #expect(message.hasPrefix("cannot open the device backup folder \(path): "), "\(message)")
            #expect(message.contains("read and search access"), "\(message)")
            #expect(!message.contains("Full Disk Access"), "\(message)")
        }
    }

    @Test func aFolderThatOpensOrIsNoFolderIsNoRefusal() throws {
        #expect(BackupFolder.accessRefusal("/") == nil)
        #expect(BackupFolder.accessRefusal("/nonexistent-\(getpid())") == nil)
        #expect(BackupFolder.accessRefusal("/dev/null") == nil)
    }
}
