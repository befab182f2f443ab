/// How the input was recognised (contract values).
public enum ContainerLayout: String, Sendable, Codable {
    /// Xcode "Download Container" package: `AppDataInfo.plist` + `AppData/`.
    case xcappdata
    /// A simulator data container: container-manager metadata plist, and the input lies in a CoreSimulator
    /// device's data folder (`…/CoreSimulator/Devices/<UDID>/data/…`).
    case simulator
    /// A data container with the container-manager metadata plist and no sign of a simulator: copied from a
    /// device (or from a simulator to elsewhere; the plist is the same on both).
    case dataContainer
    /// A bare data container: at least two of `Documents/`, `Library/`, `tmp/`, or a `Library/` holding
    /// folders iOS makes.
    case bare
    /// One app's domain of a device backup (Finder, iTunes, `idevicebackup2`): its `Manifest.db` records,
    /// not a walked tree.
    case deviceBackup
}

/// Where the bundle identifier came from (contract values), strongest first. `ambiguous`: clues that are not
/// authoritative name different apps and none wins; `none`: nothing names the app.
public enum BundleIdentifierSource: String, Sendable, Codable, CaseIterable {
    case option, appDataInfo, containerMetadata
    /// What iOS writes for the app itself: `Library/SplashBoard/Snapshots/<id> - {DEFAULT GROUP}`,
    /// `sceneID:<id>-default`, older devices' `Library/Caches/Snapshots/<id>/`.
    case launchSnapshot
    /// `Library/Saved Application State/<id>.savedState`.
    case savedState
    /// URLSession's and WebKit's per-process folders: `Library/HTTPStorages/<id>`, `Library/Caches/<id>/` holding
    /// what iOS puts there (`Cache.db`, `fsCachedData`, `com.apple.*`), `Library/WebKit/<id>/`.
    case httpStorage, cachesFolder, webKitFolder
    /// `Library/Preferences/<id>.plist`: third-party SDKs write their own there, so it never wins alone against
    /// another candidate, and a known SDK's or framework's plist is no candidate at all.
    case preferencesFile
    case ambiguous, none

    /// Sources that settle the identity whatever else the container shows.
    public var isAuthoritative: Bool { self == .option || self == .appDataInfo || self == .containerMetadata }
}

/// One piece of evidence for whose container this is.
public struct IdentityClue: Sendable, Equatable {
    public let identifier: String
    public let source: BundleIdentifierSource
    /// Where it was seen: a path relative to the input (metadata plists) or the container root.
    public let path: String

    public init(identifier: String, source: BundleIdentifierSource, path: String) {
        self.identifier = identifier
        self.source = source
        self.path = path
    }
}

/// When the export was made, and how that is known (contract values of `exportedAtSource`).
public struct ExportTime: Sendable, Equatable {
    public enum Source: String, Sendable {
        /// `AppDataInfo.plist` `XCDownloadDate`: the Mac's local wall-clock time, no zone.
        case downloadDate
        /// The modification time of the metadata plist Xcode wrote with the download (`AppDataInfo.plist`).
        case metadataFile
        case inputFolder
    }

    /// Seconds since 1970, UTC; for a local time, the wall-clock time read as if it were UTC (its zone is
    /// unknown), shown without a zone.
    public let seconds: Int64
    /// Milliseconds past `seconds` (only `XCDownloadDate` carries them).
    public let milliseconds: Int
    public let source: Source
    /// A wall-clock time of unknown zone (`XCDownloadDate` as Xcode writes it: the Mac's local time).
    public let isLocalTime: Bool

    public init(seconds: Int64, milliseconds: Int = 0, source: Source, isLocalTime: Bool = false) {
        self.seconds = seconds
        self.milliseconds = milliseconds
        self.source = source
        self.isLocalTime = isLocalTime
    }
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
    public let inputPath: String
    /// Absolute path of the data-container root (for `.xcappdata`: its `AppData/`).
    public let rootPath: String
    public let layout: ContainerLayout
    public let bundleIdentifier: String?
    public let bundleIdentifierSource: BundleIdentifierSource
    /// Every clue found, strongest first; those naming another id than `bundleIdentifier` disagree.
    public let identityClues: [IdentityClue]
    /// For `ambiguous`: the ids the strongest clues name, none of which wins.
    public let identityCandidates: [String]
    /// `AppDataInfo.plist`, the container-manager metadata plist: whichever exist.
    public let metadata: [MetadataDocument]
    /// When the export was written: `XCDownloadDate`, else the metadata plist's or the input folder's
    /// modification time.
    public let exportedAt: ExportTime?
    /// The archive the container was read from in place; nil for a folder.
    public let archive: ArchiveDescription?
    /// Allocated sizes are estimated (as the device's APFS would allocate them), not measured on disk.
    public let allocatedBytesEstimated: Bool
    /// The device the container was copied from (`audit --device`); nil otherwise.
    public let device: DeviceCopyDescription?

    public init(
        inputPath: String, rootPath: String, layout: ContainerLayout, bundleIdentifier: String?,
        bundleIdentifierSource: BundleIdentifierSource, identityClues: [IdentityClue] = [],
        identityCandidates: [String] = [], metadata: [MetadataDocument], exportedAt: ExportTime? = nil,
        archive: ArchiveDescription? = nil, allocatedBytesEstimated: Bool = false, device: DeviceCopyDescription? = nil
    ) {
        self.device = device
        self.archive = archive
        self.allocatedBytesEstimated = allocatedBytesEstimated
        self.exportedAt = exportedAt
        self.identityClues = identityClues
        self.identityCandidates = identityCandidates
        self.inputPath = inputPath
        self.rootPath = rootPath
        self.layout = layout
        self.bundleIdentifier = bundleIdentifier
        self.bundleIdentifierSource = bundleIdentifierSource
        self.metadata = metadata
    }

    /// This container as copied from a device: a data container (devicectl may leave the container manager's
    /// plist behind, which would otherwise make it a bare tree) with the device it came from.
    public func copied(from device: DeviceCopyDescription) -> ContainerDescription {
        ContainerDescription(
            inputPath: inputPath, rootPath: rootPath, layout: .dataContainer, bundleIdentifier: bundleIdentifier,
            bundleIdentifierSource: bundleIdentifierSource, identityClues: identityClues,
            identityCandidates: identityCandidates, metadata: metadata, exportedAt: exportedAt, archive: archive,
            allocatedBytesEstimated: allocatedBytesEstimated, device: device)
    }
}
