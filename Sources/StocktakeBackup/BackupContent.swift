import StocktakeFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The content files of a backup, `<first two hex digits>/<fileID>`, opened one component at a time below the
/// backup folder, never through a link: a `<xx>/` folder that is a symbolic link (to `/etc`, to another backup)
/// is refused like a linked content file, so nothing outside the backup is read. The backup folder itself may be
/// reached through a link, as the user named it. Folders stay open while the object lives; use it from one thread.
final class BackupContent {
    private let root: Int32
    private var folders: [String: Int32] = [:]

    init(_ folder: BackupFolder) {
        root = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    deinit {
        for descriptor in folders.values where descriptor >= 0 { close(descriptor) }
        if root >= 0 { close(root) }
    }

    /// The content file of `fileID`, a regular file reached without following a link.
    func file(fileID: String) throws(FileRefusal) -> RegularFile {
        guard root >= 0 else { throw .system(ENOENT) }
        // A fileID is 40 hex digits; anything else (a hostile `../`) names no content file.
        guard fileID.utf8.count == 40, fileID.utf8.allSatisfy({ BackupFolder.isHexDigit($0) }) else {
            throw .system(ENOENT)
        }
        let prefix = String(fileID.prefix(2))
        let folder: Int32
        if let open = folders[prefix] {
            folder = open
        } else {
            folder = openat(root, prefix, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            folders[prefix] = folder >= 0 ? folder : -Int32(SystemError.current)
        }
        guard folder >= 0 else {
            let code = -folder
            // O_NOFOLLOW on a link: Linux says ELOOP, the BSDs EMLINK; O_DIRECTORY on a file: ENOTDIR.
            throw code == ELOOP || code == EMLINK ? .symbolicLink : .system(code)
        }
        var options = RegularFile.Options.insideContainer(maxBytes: nil)
        let opened = fileID.withCString { name in
            Result { () throws(FileRefusal) in try RegularFile.open(name, in: folder, options: &options) }
        }
        return try opened.get()
    }
}
