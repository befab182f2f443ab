/// How the input was recognised (contract values).
public enum ContainerLayout: String, Sendable, Codable {
    /// Xcode "Download Container" package: `AppDataInfo.plist` + `AppData/`.
    case xcappdata
    /// A simulator data container, recognised by its container-manager metadata plist.
    case simulator
    /// A bare data container: at least two of `Documents/`, `Library/`, `tmp/`.
    case bare
}

/// Where the bundle identifier came from.
public enum BundleIdentifierSource: String, Sendable, Codable {
    case option, appDataInfo, containerMetadata, preferencesFile, cachesFolder, none
}

/// A metadata plist read from the input, shown verbatim in the report.
public struct MetadataDocument: Sendable, Equatable {
    /// Path relative to the input (for `.xcappdata`) or container root.
    public let path: String
    /// The decoded top-level value, or nil when it could not be read (see `problem`).
    public let value: PropertyListValue?
    public let problem: String?

    public init(path: String, value: PropertyListValue?, problem: String?) {
        self.path = path
        self.value = value
        self.problem = problem
    }
}

/// The identified input: where the container root is and whose it is.
public struct ContainerDescription: Sendable {
    /// The path the user gave.
    public let inputPath: String
    /// Absolute path of the data-container root (for `.xcappdata`: its `AppData/`).
    public let rootPath: String
    public let layout: ContainerLayout
    public let bundleIdentifier: String?
    public let bundleIdentifierSource: BundleIdentifierSource
    /// `AppDataInfo.plist`, the container-manager metadata plist: whichever exist.
    public let metadata: [MetadataDocument]
    /// When the export was written, as the file system says (seconds since 1970): the modification time of
    /// `AppDataInfo.plist` for an `.xcappdata` (Xcode writes it with the download), else of the input folder.
    public let exportedAt: Int64?

    public init(
        inputPath: String, rootPath: String, layout: ContainerLayout, bundleIdentifier: String?,
        bundleIdentifierSource: BundleIdentifierSource, metadata: [MetadataDocument], exportedAt: Int64? = nil
    ) {
        self.exportedAt = exportedAt
        self.inputPath = inputPath
        self.rootPath = rootPath
        self.layout = layout
        self.bundleIdentifier = bundleIdentifier
        self.bundleIdentifierSource = bundleIdentifierSource
        self.metadata = metadata
    }
}
