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

        let layout: ContainerLayout
        let root: String
        var metadata: [MetadataDocument] = []
        var appDataInfo: PropertyListValue?
        let appData = Paths.join(input, appDataFolder)
        let info =
            FileKind(path: appData) == .directory
            ? readMetadata(at: Paths.join(input, appDataInfoFile), shownAs: appDataInfoFile) ?? missingAppDataInfo : nil
        if let info,
            info.value != nil || looksLikeBareContainer(appData)
                || FileKind(path: Paths.join(appData, containerMetadataFile)) == .regularFile
        {
            layout = .xcappdata
            root = appData
            metadata.append(info)
            appDataInfo = info.value
        } else if FileKind(path: Paths.join(input, containerMetadataFile)) == .regularFile {
            // The same plist is on devices and simulators: only the place says "simulator".
            layout = inSimulatorDevice || isInSimulatorDevice(input) ? .simulator : .dataContainer
            root = input
        } else if looksLikeBareContainer(input) {
            layout = .bare
            root = input
        } else {
            throw .notAContainer(path: path, found: describe(listing))
        }

        let metadataPrefix = layout == .xcappdata ? appDataFolder + "/" : ""
        let containerMetadata = readMetadata(
            at: Paths.join(root, containerMetadataFile), shownAs: metadataPrefix + containerMetadataFile)
        if let containerMetadata { metadata.append(containerMetadata) }

        let clues =
            authoritativeClues(
                override: override, appDataInfo: appDataInfo, containerMetadata: containerMetadata?.value,
                metadataPrefix: metadataPrefix)
            + IdentityClues.collect(containerRoot: root)
        let identity = BundleIdentity.decide(clues)
        return ContainerDescription(
            inputPath: path, rootPath: root, layout: layout, bundleIdentifier: identity.identifier,
            bundleIdentifierSource: identity.source, identityClues: clues, identityCandidates: identity.candidates,
            metadata: metadata, exportedAt: exportTime(input: input, layout: layout, appDataInfo: appDataInfo))
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

    /// The option and the metadata plists' ids, strongest first; those from the container must look like bundle ids.
    static func authoritativeClues(
        override: String?, appDataInfo: PropertyListValue?, containerMetadata: PropertyListValue?,
        metadataPrefix: String
    ) -> [IdentityClue] {
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
        if let id = containerMetadata?["MCMMetadataIdentifier"]?.stringValue, BundleIdentifierRules.isPlausible(id) {
            let path = metadataPrefix + containerMetadataFile
            clues.append(IdentityClue(identifier: id, source: .containerMetadata, path: path))
        }
        return clues
    }

    /// An `.xcappdata` without its `AppDataInfo.plist`: reported, never fatal.
    static let missingAppDataInfo = MetadataDocument(
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
    /// are only Library/ with Preferences, SplashBoard, Caches). A symbolic link does not count.
    private static func looksLikeBareContainer(_ folder: String) -> Bool {
        looksLikeBareContainer { FileKind(path: Paths.join(folder, $0)) }
    }

    /// The same test where `kind` says what stands at a path below the folder (on disk, or in an archive).
    static func looksLikeBareContainer(_ kind: (String) -> FileKind) -> Bool {
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
