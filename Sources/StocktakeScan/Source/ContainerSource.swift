import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Recognises what the user pointed at (an `.xcappdata` package, a data container or a bare Documents/Library/tmp
/// tree) by its structure, never one file alone, and whose it is. Only the input itself may be a link.
public enum ContainerSource {
    static let appDataFolder = "AppData"
    static let appDataInfoFile = "AppDataInfo.plist"
    static let containerMetadataFile = ".com.apple.mobile_container_manager.metadata.plist"
    static let standardFolders = ["Documents", "Library", "tmp"]

    /// Throws for a missing path, a file, or a folder that is no container (saying what was found).
    /// `inSimulatorDevice`: the caller found the container in a device set itself (`--simulator`), wherever that set is.
    public static func identify(
        path: String, bundleIdentifier override: String? = nil, inSimulatorDevice: Bool = false
    ) throws(ScanError) -> ContainerDescription {
        let input = try resolveInputFolder(path)
        let listing: DirectoryListing
        do {
            listing = try DirectoryListing.read(input, limit: 1_000)
        } catch {
            throw .unreadableRoot(path: path, reason: error.reason)
        }
        guard
            let found = recognise(
                kind: { FileKind(path: Paths.join(input, $0)) },
                document: { readMetadata(at: Paths.join(input, $0), shownAs: $0) },
                isSimulator: { inSimulatorDevice || isInSimulatorDevice(input) })
        else { throw .notAContainer(path: path, found: describe(listing)) }
        let root = found.layout == .xcappdata ? Paths.join(input, appDataFolder) : input
        return found.describe(
            inputPath: path, rootPath: root, override: override, listed: IdentityClues.collect(containerRoot: root),
            exportedAt: exportTime(input: input, layout: found.layout, appDataInfo: found.appDataInfo))
    }

    /// What a folder is by its structure, and its metadata plists.
    struct Recognised {
        let layout: ContainerLayout
        let metadata: [MetadataDocument]
        let appDataInfo: PropertyListValue?
        let containerMetadata: PropertyListValue?

        /// Whose container it is, from the option, the metadata plists' ids (which must look like bundle ids) and
        /// the clues `listed` below its root; `archive` for one read from an archive, whose sizes are estimates.
        func describe(
            inputPath: String, rootPath: String, override: String?, listed: [IdentityClue], exportedAt: ExportTime?,
            archive: ArchiveDescription? = nil
        ) -> ContainerDescription {
            var clues: [IdentityClue] = []
            if let override, !override.isEmpty {
                clues.append(IdentityClue(identifier: override, source: .option, path: "--bundle-id"))
            }
            // Xcode writes CFBundleIdentifier; some third-party exporters write BundleIdentifier.
            for key in ["CFBundleIdentifier", "BundleIdentifier"] {
                if let identifier = appDataInfo?[key]?.stringValue, BundleIdentifierRules.isPlausible(identifier) {
                    clues.append(IdentityClue(identifier: identifier, source: .appDataInfo, path: appDataInfoFile))
                    break
                }
            }
            if let id = containerMetadata?["MCMMetadataIdentifier"]?.stringValue, BundleIdentifierRules.isPlausible(id)
            {
                let path =
                    layout == .xcappdata ? Paths.join(appDataFolder, containerMetadataFile) : containerMetadataFile
                clues.append(IdentityClue(identifier: id, source: .containerMetadata, path: path))
            }
            clues += listed
            let identity = BundleIdentity.decide(clues)
            return ContainerDescription(
                inputPath: inputPath, rootPath: rootPath, layout: layout, bundleIdentifier: identity.identifier,
                bundleIdentifierSource: identity.source, identityClues: clues, identityCandidates: identity.candidates,
                metadata: metadata, exportedAt: exportedAt, archive: archive, allocatedBytesEstimated: archive != nil)
        }
    }

    /// An `.xcappdata` (`AppData/` with an `AppDataInfo.plist` that parses, or holding a container), else a data
    /// container (its container-manager plist; the same on devices and simulators: only the place says which), else
    /// a bare tree; nil for none. `kind` and `document` (nil for an absent plist) look at paths below the folder.
    static func recognise(
        kind: (String) -> FileKind, document: (String) -> MetadataDocument?, isSimulator: () -> Bool
    ) -> Recognised? {
        let metadataInAppData = Paths.join(appDataFolder, containerMetadataFile)
        if kind(appDataFolder) == .directory {
            let info = document(appDataInfoFile) ?? missingAppDataInfo
            if info.value != nil || looksLikeBareContainer({ kind(Paths.join(appDataFolder, $0)) })
                || kind(metadataInAppData) == .regularFile
            {
                let container = document(metadataInAppData)
                return Recognised(
                    layout: .xcappdata, metadata: [info] + (container.map { [$0] } ?? []), appDataInfo: info.value,
                    containerMetadata: container?.value)
            }
        }
        let layout: ContainerLayout
        if kind(containerMetadataFile) == .regularFile {
            layout = isSimulator() ? .simulator : .dataContainer
        } else if looksLikeBareContainer(kind) {
            layout = .bare
        } else {
            return nil
        }
        let container = document(containerMetadataFile)
        return Recognised(
            layout: layout, metadata: container.map { [$0] } ?? [], appDataInfo: nil,
            containerMetadata: container?.value)
    }

    /// `XCDownloadDate`, else when `AppDataInfo.plist` was written (with the download), else the input folder's time.
    private static func exportTime(input: String, layout: ContainerLayout, appDataInfo: PropertyListValue?)
        -> ExportTime?
    {
        if let downloaded = DownloadDate.exportTime(appDataInfo?["XCDownloadDate"]) { return downloaded }
        if layout == .xcappdata, let seconds = modificationTime(Paths.join(input, appDataInfoFile)) {
            return ExportTime(seconds: seconds, source: .metadataFile)
        }
        return modificationTime(input).map { ExportTime(seconds: $0, source: .inputFolder) }
    }

    /// Of the link itself, never its target.
    private static func modificationTime(_ path: String) -> Int64? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.modificationSeconds : nil
    }

    // MARK: - Steps

    /// The absolute, normalised folder the input names, following the input itself if it is a link.
    private static func resolveInputFolder(_ path: String) throws(ScanError) -> String {
        var status = stat()
        guard !path.isEmpty, lstat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR || path.isEmpty { throw .missingPath(path) }
            throw .unreadableRoot(path: path, reason: SystemError.currentText)
        }
        guard let resolved = realpath(path, nil) else {
            let reason =
                errno == ENOENT ? "it is a symbolic link to something that does not exist" : SystemError.currentText
            throw .unreadableRoot(path: path, reason: reason)
        }
        defer { free(resolved) }
        let absolute = String(cString: resolved)
        guard FileKind(path: absolute) == .directory else { throw .notADirectory(path) }
        return absolute
    }

    /// An `.xcappdata` without its `AppDataInfo.plist`: reported, never fatal.
    private static let missingAppDataInfo = MetadataDocument(
        path: appDataInfoFile, value: nil,
        problem: "missing: an Xcode .xcappdata package holds \(appDataInfoFile) beside \(appDataFolder)/")

    /// Reads a metadata plist; nil when it is absent. A malformed one is reported in the document, never fatal.
    private static func readMetadata(at path: String, shownAs relativePath: String) -> MetadataDocument? {
        guard FileKind(path: path) != .missing else { return nil }
        do {
            // Real metadata plists are a few hundred bytes; 1 MiB leaves room and bounds the read.
            let value = try PropertyListReader.readUnlabelled(
                contentsOfFile: path, maxBytes: PropertyListReader.metadataLimit)
            return MetadataDocument(path: relativePath, value: value, problem: nil)
        } catch {
            return MetadataDocument(path: relativePath, value: nil, problem: error.message)
        }
    }

    // MARK: - Structure

    /// Two of Documents/, Library/, tmp/; or a Library/ holding a folder iOS makes there (many real containers
    /// are only Library/ with Preferences, SplashBoard, Caches). `kind` never follows a link.
    private static func looksLikeBareContainer(_ kind: (String) -> FileKind) -> Bool {
        if standardFolders.count(where: { kind($0) == .directory }) >= 2 { return true }
        guard kind("Library") == .directory else { return false }
        return libraryMarkers.contains { kind("Library/" + $0) == .directory }
    }

    /// Library folders only iOS or its standard APIs make: the standard folders with a location of their own, and
    /// those iOS makes and never backs up (SplashBoard, Saved Application State).
    static let libraryMarkers =
        LibraryFolder.standard.filter { $0.location != .libraryOther }.map(\.name)
        + SystemCatalogue.items.filter { $0.parent == .library && !$0.isPrefix && $0.backup == .notBackedUp }.map(
            \.name)

    /// `…/CoreSimulator/Devices/<UDID>/data/…`, or `DEVICE/data/Containers/Data/<kind>/<UUID>` in any other device
    /// set, whose device folder holds the `device.plist` every simulator device has.
    private static func isInSimulatorDevice(_ resolvedInput: String) -> Bool {
        if resolvedInput.contains("/CoreSimulator/Devices/") && resolvedInput.contains("/data/Containers/Data/") {
            return true
        }
        let parts = resolvedInput.split(separator: "/")
        guard parts.count > 5, parts.suffix(5).prefix(3).elementsEqual(["data", "Containers", "Data"]) else {
            return false
        }
        return FileKind(path: "/" + parts.dropLast(5).joined(separator: "/") + "/device.plist") == .regularFile
    }

    /// The folder's entries for the refusal message: folders with a trailing `/`, links and special files marked.
    private static func describe(_ listing: DirectoryListing) -> [String] {
        let names = listing.entries.sorted { $0.name < $1.name }.map { entry in
            switch entry.kind {
            case .directory: entry.name + "/"
            case .symbolicLink: entry.name + " (symbolic link, not followed)"
            case .other: entry.name + " (special file)"
            case .regularFile, .missing: entry.name
            }
        }
        return listing.isTruncated ? names + ["more than \(listing.entries.count) entries"] : names
    }
}
