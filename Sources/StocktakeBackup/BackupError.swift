import StocktakeFiles
import StocktakeModel

/// Why a device backup cannot be read. Messages say what was found and what to do; paths go through `VisibleText`.
package enum BackupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `Manifest.plist` says `IsEncrypted`, or `Manifest.db` is not an SQLite database (it is encrypted with the keybag).
    case encrypted(path: String, reason: String)
    /// An iOS 9-or-older backup: `Manifest.mbdb`, no `Manifest.db`.
    case mbdbUnsupported(path: String)
    case missingManifest(path: String)
    /// `Manifest.db` is there, but a link, FIFO, folder or device: `refusal` says which.
    case manifestNotAFile(path: String, refusal: String)
    /// Beyond a `BackupLimits` limit, or a schema no backup tool writes: refused before it costs more.
    case unexpected(path: String, reason: String)
    case corruptManifest(path: String, reason: String)
    case notABackup(path: String)
    case appNotInBackup(path: String, app: String, nearest: [String], count: Int)
    case noAppChosen(path: String, apps: [String])
    /// `--backup` with a container that does not say whose it is.
    case containerUnidentified(path: String)
    /// EPERM or EACCES; `path` is absolute, so that where macOS guards it the message can say so.
    case accessRefused(path: String, code: Int32)

    package var description: String {
        func quote(_ text: String) -> String { VisibleText.render(text, as: .message) }
        return switch self {
        case .encrypted(let path, let reason):
            "\(quote(path)) is an encrypted device backup (\(reason)): Stocktake reads only unencrypted backups. Make an unencrypted backup (Finder or iTunes: untick \"Encrypt local backup\"; idevicebackup2 encryption off), or decrypt this one first with a tool that knows its password, then audit the decrypted copy"
        case .mbdbUnsupported(let path):
            "\(quote(path)) is an iOS 9-or-older device backup (Manifest.mbdb): not supported yet; make a backup of a device on iOS 10 or later (Manifest.db)"
        case .missingManifest(let path):
            "\(quote(path)) looks like a device backup but has no Manifest.db: the backup is incomplete; copy the whole backup folder again"
        case .manifestNotAFile(let path, let refusal):
            "\(quote(path)) looks like a device backup but its Manifest.db cannot be read: \(refusal); copy the whole backup folder again, with Manifest.db a regular file (links and special files in a backup are never followed or opened)"
        case .corruptManifest(let path, let reason):
            "cannot read the device backup \(quote(path)): \(quote(reason)); copy the backup folder again, or make a new backup"
        case .unexpected(let path, let reason):
            "refusing the device backup \(quote(path)): \(quote(reason)); Finder, iTunes and idevicebackup2 never write that, so the backup was altered or made by another tool: make a new backup with one of them"
        case .notABackup(let path):
            "\(quote(path)) is not a device backup: expected a folder holding Manifest.db (and Manifest.plist, Info.plist, Status.plist) as Finder, iTunes or idevicebackup2 writes it"
        case .appNotInBackup(let path, let app, let nearest, let count):
            "the device backup \(quote(path)) holds no app \(quote(app)) (no AppDomain-\(quote(app)) among its \(count) apps)"
                + (nearest.isEmpty ? "" : "; nearest: " + nearest.map(quote).joined(separator: ", "))
                + "; `stocktake apps` lists them"
        case .noAppChosen(let path, let apps):
            "\(quote(path)) is a device backup of \(apps.count) app\(apps.count == 1 ? "" : "s"): choose one with --app ID"
                + (apps.isEmpty ? "" : " (e.g. \(apps.prefix(3).map(quote).joined(separator: ", ")))")
                + "; `stocktake apps` lists them"
        case .containerUnidentified(let path):
            "cannot find the container's app in the device backup \(quote(path)): the container does not say whose it is; give --bundle-id ID"
        case .accessRefused(let path, let code):
            "cannot open the device backup folder \(quote(path)): \(SystemError.text(code)) (errno \(code)); "
                + (Self.guardedByPrivacySettings(path)
                    ? Self.fullDiskAccessAdvice
                    : "give the user running stocktake read and search access to it and to everything in it")
        }
    }

    /// What to do where macOS's privacy protection refuses Finder's backups.
    package static let fullDiskAccessAdvice =
        "macOS lets only apps with Full Disk Access read Library/Application Support/MobileSync: turn it on for the terminal app you run stocktake from (System Settings > Privacy & Security > Full Disk Access), or for /usr/sbin/cron when a cron job runs it, then run stocktake again"

    /// Whether `path` lies where Finder keeps backups and macOS refuses apps without Full Disk Access (without case,
    /// as a default Mac volume).
    package static func guardedByPrivacySettings(_ path: String) -> Bool {
        let guarded = "/library/application support/mobilesync"
        let lowered = path.lowercased()
        guard let range = lowered.range(of: guarded) else { return false }
        return range.upperBound == lowered.endIndex || lowered[range.upperBound] == "/"
    }
}
