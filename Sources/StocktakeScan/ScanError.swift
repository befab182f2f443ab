import StocktakeModel

/// Why an audit could not start or finish. Messages say what was found and what to do.
public enum ScanError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingPath(String)
    case notADirectory(String)
    case notAContainer(path: String, found: [String])
    case unreadableRoot(path: String, reason: String)
    case archiveReaderMissing(path: String, reason: String, remedy: String)

    /// Paths and the names found are quoted through `VisibleText` (an inbox entry's name is hostile).
    public var description: String {
        func quote(_ text: String) -> String { VisibleText.render(text, as: .message) }
        return switch self {
        case .missingPath(let path):
            "no such file or folder: \(quote(path))"
        case .notADirectory(let path):
            "\(quote(path)) is a file, not a container folder: give the .xcappdata package, a simulator data container, a folder holding Documents/, Library/ and tmp/, or a .zip/.tar/.tar.gz/.tgz/.tar.xz of one"
        case .notAContainer(let path, let found):
            "\(quote(path)) is not an app data container: expected an .xcappdata package (AppDataInfo.plist + AppData/), a data container (.com.apple.mobile_container_manager.metadata.plist, from a device or a simulator) or a folder holding at least two of Documents/, Library/, tmp/ (or a Library/ with Preferences/, Caches/, Application Support/, SplashBoard/ or Saved Application State/); found "
                + (found.isEmpty
                    ? "an empty folder"
                    : found.prefix(8).map(quote).joined(separator: ", ") + (found.count > 8 ? ", …" : ""))
        case .unreadableRoot(let path, let reason):
            "cannot read \(quote(path)): \(reason)"
        case .archiveReaderMissing(let path, let reason, let remedy):
            "cannot read \(quote(path)) as an archive: reading zip and tar exports needs the system's libarchive, which could not be loaded (\(quote(reason))); \(remedy). Folders, simulator containers and device backups do not need it."
        }
    }
}
