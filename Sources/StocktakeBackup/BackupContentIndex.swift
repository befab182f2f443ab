import StocktakeFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the content checks find the bytes of an app's backed-up files: each file entry's content file
/// (`<backup>/<first two hex digits>/<fileID>`), and the files the backup records with data protection class None.
package struct BackupContentIndex: Sendable {
    package let folder: BackupFolder
    package let fileIDs: [Int32: String]
    package let unprotected: Set<Int32>

    /// The content file's path, nil when the entry has none or its `<xx>` folder is not a real folder of the
    /// backup (a link to elsewhere is never read through; the file itself is opened without following links).
    package func contentPath(of entry: Int32) -> String? {
        guard let fileID = fileIDs[entry], let path = folder.contentPath(fileID: fileID),
            BackupFolder.fileType(Paths.join(folder.path, String(fileID.prefix(2)))) == S_IFDIR
        else { return nil }
        return path
    }
}
