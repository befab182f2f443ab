import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists
import StocktakeScan

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device backup folder as Finder, iTunes or `idevicebackup2` writes it; nothing here opens anything for writing.
package struct BackupFolder: Sendable {
    package static let manifestDatabase = "Manifest.db"
    package static let legacyManifest = "Manifest.mbdb"
    package static let manifestPlist = "Manifest.plist"
    package static let statusPlist = "Status.plist"

    /// The folder as given, and its `Manifest.plist` and `Status.plist` when readable.
    package let path: String
    package let manifest: PropertyListValue?
    package let status: PropertyListValue?

    /// A folder holding any manifest; `Manifest.db` counts whatever it is, so a backup holding a broken one says so.
    package static func looksLikeBackup(_ path: String) -> Bool {
        var status = stat()
        // stat: the backup folder itself may be reached through a link.
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return false }
        return fileType(Paths.join(path, manifestDatabase)) != nil
            || [legacyManifest, manifestPlist].contains { fileType(Paths.join(path, $0)) == S_IFREG }
    }

    /// Opens the folder, refusing what cannot be read; the database itself is checked when `ManifestDatabase` opens it.
    package static func open(_ path: String) throws(BackupError) -> BackupFolder {
        if let refused = accessRefusal(path) { throw refused }
        guard looksLikeBackup(path) else { throw .notABackup(path: path) }
        let manifest = try plist(path, manifestPlist, maxBytes: BackupLimits.maxManifestPlistBytes)
        if manifest?["IsEncrypted"]?.boolValue == true {
            throw .encrypted(path: path, reason: "Manifest.plist says IsEncrypted")
        }
        switch fileType(Paths.join(path, manifestDatabase)) {
        case S_IFREG: break
        case let type?: throw .manifestNotAFile(path: path, refusal: FileRefusal(mode: type)?.description ?? "")
        case nil:
            if fileType(Paths.join(path, legacyManifest)) == S_IFREG { throw .mbdbUnsupported(path: path) }
            throw .missingManifest(path: path)
        }
        let status = try plist(path, statusPlist, maxBytes: BackupLimits.maxStatusPlistBytes)
        return BackupFolder(path: path, manifest: manifest, status: status)
    }

    /// Nil when there is none; refused when it is there but does not read (a link, a FIFO, damage, too large).
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

    package var productVersion: String? { manifest?["Lockdown"]?["ProductVersion"]?.stringValue }

    /// `Status.plist` `Date`, else `Manifest.plist` `Date`: when the backup was made, seconds since 1970.
    package var date: Int64? {
        MBFile.unixSeconds(status?["Date"]) ?? MBFile.unixSeconds(manifest?["Date"])
    }

    /// Why the backup may not hold everything: an interrupted snapshot (`Status.plist`).
    package var incompleteness: ScanIssue? {
        guard let state = status?["SnapshotState"]?.stringValue, state != "finished" else { return nil }
        let detail =
            "the device backup is incomplete (Status.plist SnapshotState \"\(state)\", not \"finished\"): "
            + "files missing from it may only not have been copied yet"
        return ScanIssue(path: [], reason: .malformedMetadata, detail: detail)
    }

    /// Where the content of a file record lives: `<backup>/<first two hex of fileID>/<fileID>`.
    package func contentPath(fileID: String) -> String? {
        Self.isFileID(fileID) ? Paths.join(path, String(fileID.prefix(2)), fileID) : nil
    }

    /// A fileID is 40 hex digits; anything else (a hostile `../`) names no content file.
    static func isFileID(_ text: String) -> Bool { text.utf8.count == 40 && text.utf8.allSatisfy(Hex.isDigit) }

    /// `Manifest.plist` `Applications[id]`'s companions, when the backup writer recorded them: group and extension ids.
    func declaredCompanions(of app: String) -> (groups: [String], plugins: [String]) {
        let entry = manifest?["Applications"]?[app]
        func identifiers(_ key: String) -> [String] {
            guard case .array(let items)? = entry?[key] else { return [] }
            return items.compactMap { $0["CFBundleIdentifier"]?.stringValue }
        }
        return (identifiers("GroupContainers"), identifiers("Plugins"))
    }

    /// Why the system refuses to open the folder (modes, or macOS's privacy protection, which allows a `stat` of it but
    /// nothing inside). Opened without blocking: `path` may be anything.
    package static func accessRefusal(_ path: String) -> BackupError? {
        let fd = openFolder(path)
        let code = SystemError.current
        if fd >= 0 { close(fd) }
        guard fd < 0, code == EPERM || code == EACCES else { return nil }
        return .accessRefused(path: absolute(path), code: code)
    }

    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let folder = getcwd(nil, 0) else { return path }
        defer { free(folder) }
        return Paths.join(String(cString: folder), path)
    }

    /// lstat: the manifests themselves must be regular files, not links out of the folder.
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
