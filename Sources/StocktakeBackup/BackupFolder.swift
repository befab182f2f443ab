import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists
import StocktakeScan

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device backup folder as Finder, iTunes or `idevicebackup2` writes it: `Manifest.db` (the file list),
/// `Manifest.plist` (encryption, device), `Status.plist` (date, completeness), `Info.plist`, and the content
/// files in `<first two hex digits of fileID>/<fileID>`. Read only: nothing here opens anything for writing.
package struct BackupFolder: Sendable {
    package static let manifestDatabase = "Manifest.db"
    package static let legacyManifest = "Manifest.mbdb"
    package static let manifestPlist = "Manifest.plist"
    package static let statusPlist = "Status.plist"

    /// The folder as given.
    package let path: String
    /// `Manifest.plist`, when readable.
    package let manifest: PropertyListValue?
    /// `Status.plist`, when readable.
    package let status: PropertyListValue?

    /// Whether `path` is a folder holding any of the manifests: a backup (readable or not), never a container.
    /// `Manifest.db` counts whatever it is (a link, a FIFO), so that a backup holding a broken one says so.
    package static func looksLikeBackup(_ path: String) -> Bool {
        guard isDirectory(path) else { return false }
        return fileType(Paths.join(path, manifestDatabase)) != nil
            || [legacyManifest, manifestPlist].contains { isRegularFile(Paths.join(path, $0)) }
    }

    /// Opens the folder after the checks that refuse what cannot be read: no backup, encrypted, iOS 9 or older,
    /// no `Manifest.db` (or one that is no regular file), a `Manifest.plist` or `Status.plist` that is there but
    /// does not read. The database itself is checked when `ManifestDatabase` opens it.
    package static func open(_ path: String) throws(BackupError) -> BackupFolder {
        if let refused = accessRefusal(path) { throw refused }
        guard looksLikeBackup(path) else { throw .notABackup(path: path) }
        let manifest = try plist(path, manifestPlist, maxBytes: BackupLimits.maxManifestPlistBytes)
        if manifest?["IsEncrypted"]?.boolValue == true {
            throw .encrypted(path: path, reason: "Manifest.plist says IsEncrypted")
        }
        if let type = fileType(Paths.join(path, manifestDatabase)), type != S_IFREG {
            throw .manifestNotAFile(
                path: path, refusal: FileRefusal(mode: type)?.description ?? "it is not a regular file")
        }
        if !isRegularFile(Paths.join(path, manifestDatabase)) {
            if isRegularFile(Paths.join(path, legacyManifest)) { throw .mbdbUnsupported(path: path) }
            throw .missingManifest(path: path)
        }
        let status = try plist(path, statusPlist, maxBytes: BackupLimits.maxStatusPlistBytes)
        return BackupFolder(path: path, manifest: manifest, status: status)
    }

    /// A plist of the folder: nil when there is none; refused when it is there but does not read (a link, a
    /// FIFO, damage, or beyond the parser's limits).
    private static func plist(_ folder: String, _ name: String, maxBytes: Int) throws(BackupError) -> PropertyListValue?
    {
        guard fileType(Paths.join(folder, name)) != nil else { return nil }
        let bytes: [UInt8]
        do {
            var options = RegularFile.Options.insideContainer(maxBytes: Int64(maxBytes))
            bytes = try RegularFile.open(Paths.join(folder, name), options: &options).readAll()
        } catch {
            throw .corruptManifest(path: folder, reason: "cannot read \(name): \(error)")
        }
        do {
            return try PropertyListReader.parse(bytes)
        } catch {
            throw .corruptManifest(path: folder, reason: "\(name): \(error.message)")
        }
    }

    /// `Lockdown.ProductVersion`: the iOS version the backup was made on.
    package var productVersion: String? { manifest?["Lockdown"]?["ProductVersion"]?.stringValue }

    /// `Status.plist` `Date`, else `Manifest.plist` `Date`: when the backup was made, seconds since 1970.
    package var date: Int64? {
        for value in [status?["Date"], manifest?["Date"]] {
            if case .date(let sinceReference)? = value, sinceReference.isFinite, abs(sinceReference) < 9e15 {
                return Int64(sinceReference) + 978_307_200
            }
        }
        return nil
    }

    /// Why the backup may not hold everything the device would back up: `Status.plist` says the snapshot did not
    /// finish (an interrupted backup); nil when it finished or does not say.
    package var incompleteness: ScanIssue? {
        guard let state = status?["SnapshotState"]?.stringValue, state != "finished" else { return nil }
        return ScanIssue(
            path: [], reason: .malformedMetadata,
            detail:
                "the device backup is incomplete (Status.plist SnapshotState \"\(state)\", not \"finished\"): files missing from it may only not have been copied yet"
        )
    }

    /// Where the content of a file record lives: `<backup>/<first two hex of fileID>/<fileID>`.
    package func contentPath(fileID: String) -> String? {
        // A fileID is 40 hex digits; anything else (a hostile `../`) names no content file.
        guard fileID.utf8.count == 40, fileID.utf8.allSatisfy({ Self.isHexDigit($0) }) else { return nil }
        return Paths.join(path, String(fileID.prefix(2)), fileID)
    }

    /// `Manifest.plist` `Applications[id]`'s companions, when the backup writer recorded them: group and extension ids.
    func declaredCompanions(of app: String) -> (groups: [String], plugins: [String]) {
        let entry = manifest?["Applications"]?[app]
        func identifiers(_ key: String) -> [String] {
            guard case .array(let items)? = entry?[key] else { return [] }
            return items.compactMap { $0["CFBundleIdentifier"]?.stringValue }
        }
        return (identifiers("GroupContainers"), identifiers("Plugins"))
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Why the folder at `path` cannot be opened, when the system refuses it (EPERM or EACCES: modes, or macOS's
    /// privacy protection, which refuses a listing and every look inside but not a `stat` of the folder); nil
    /// otherwise, including for what is no folder. Opened without blocking: `path` may be anything.
    package static func accessRefusal(_ path: String) -> BackupError? {
        let fd = openFolder(path)
        if fd >= 0 {
            close(fd)
            return nil
        }
        let code = SystemError.current
        guard code == EPERM || code == EACCES else { return nil }
        return .accessRefused(path: absolute(path), code: code)
    }

    /// `path` against the working folder when relative, as the user would look for it.
    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let folder = getcwd(nil, 0) else { return path }
        defer { free(folder) }
        return Paths.join(String(cString: folder), path)
    }

    /// lstat: the manifests themselves must be regular files, not links out of the folder.
    static func isRegularFile(_ path: String) -> Bool { fileType(path) == S_IFREG }

    /// stat: the backup folder itself may be reached through a link.
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    static func fileType(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }
}

/// At file scope `open` is the C function, not `BackupFolder.open`.
private func openFolder(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
}
