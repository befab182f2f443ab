import StocktakeFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The content files of a backup, opened one component at a time below the backup folder and never through a link
/// (a `<xx>/` folder linked to `/etc` is refused), so nothing outside the backup is read. Use it from one thread.
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
        guard root >= 0, BackupFolder.isFileID(fileID) else { throw .system(ENOENT) }
        let prefix = String(fileID.prefix(2))
        let folder: Int32
        if let open = folders[prefix] {
            folder = open
        } else {
            // A failure is kept as its negated errno, which the first caller gets as every later one does.
            let opened = openat(root, prefix, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            folder = opened >= 0 ? opened : -Int32(SystemError.current)
            folders[prefix] = folder
        }
        guard folder >= 0 else {
            let code = -folder
            // O_NOFOLLOW on a link: Linux says ELOOP, the BSDs EMLINK; O_DIRECTORY on a file: ENOTDIR.
            throw code == ELOOP || code == EMLINK ? .symbolicLink : .system(code)
        }
        var options = RegularFile.Options.insideContainer(maxBytes: nil)
        return try fileID.withCString { name in
            Result { () throws(FileRefusal) in try RegularFile.open(name, in: folder, options: &options) }
        }.get()
    }
}

/// Where the content checks find an app's backed-up files, and which have data protection class None.
package struct BackupContentIndex: Sendable {
    package let folder: BackupFolder
    package let fileIDs: [Int32: String]
    package let unprotected: Set<Int32>

    /// Nil when the entry has none or its `<xx>` folder is not a real folder of the backup (never read through a link).
    package func contentPath(of entry: Int32) -> String? {
        guard let fileID = fileIDs[entry], let path = folder.contentPath(fileID: fileID),
            BackupFolder.fileType(Paths.join(folder.path, String(fileID.prefix(2)))) == S_IFDIR
        else { return nil }
        return path
    }
}
