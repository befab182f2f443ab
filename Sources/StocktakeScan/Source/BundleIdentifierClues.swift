/// Bundle identifiers guessed from the names iOS gives per-app files and folders, for containers
/// whose metadata plists are missing or silent.
enum BundleIdentifierClues {
    /// Cache folders that SDKs name in reverse-DNS style under `Library/Caches/`; they name the
    /// SDK, not the app.
    private static let sdkCacheFolders: Set<String> = [
        "com.crashlytics.data",
        "com.hackemist.SDImageCache",
        "com.onevcat.Kingfisher.ImageCache.default",
        "fsCachedData",
    ]
    private static let sdkCacheFolderPrefixes = ["com.onevcat.Kingfisher.ImageCache."]

    /// `Library/Preferences/<id>.plist`, the file CFPreferences writes for the app's standard
    /// UserDefaults. Prefers an id that also has a `Library/Caches/<id>/` folder (SDK preference
    /// files have none), then the lexicographically first.
    static func fromPreferences(containerRoot root: String) -> String? {
        let folder = root + "/Library/Preferences"
        guard isRealDirectory(root + "/Library"), isRealDirectory(folder),
              let listing = try? DirectoryListing.read(folder)
        else { return nil }
        let candidates = listing.entries
            .filter { $0.kind == .regularFile && $0.name.hasSuffix(".plist") }
            .map { String($0.name.dropLast(".plist".count)) }
            .filter { isReverseDNS($0) && !isApple($0) }
            .sorted()
        return candidates.first { isRealDirectory(root + "/Library/Caches/" + $0) } ?? candidates.first
    }

    /// `Library/Caches/<id>/`, where URLSession keeps the app's `Cache.db`. Prefers a folder that
    /// holds `Cache.db`, then the lexicographically first.
    static func fromCaches(containerRoot root: String) -> String? {
        let folder = root + "/Library/Caches"
        guard isRealDirectory(root + "/Library"), isRealDirectory(folder),
              let listing = try? DirectoryListing.read(folder)
        else { return nil }
        let candidates = listing.entries
            .filter { $0.kind == .directory && isReverseDNS($0.name) && !isApple($0.name) && !isSDKCache($0.name) }
            .map(\.name)
            .sorted()
        return candidates.first { FileKind(path: folder + "/" + $0 + "/Cache.db") == .regularFile } ?? candidates.first
    }

    /// A plausible bundle identifier: ASCII letters, digits, hyphens and dots, no empty component.
    /// Also keeps identifiers from metadata plists safe to use in report paths.
    static func isPlausible(_ identifier: String) -> Bool {
        let components = identifier.split(separator: ".", omittingEmptySubsequences: false)
        return !identifier.isEmpty && identifier.utf8.count <= 255
            && components.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isIdentifierByte) }
    }

    /// Reverse-DNS looking: plausible and at least two components (`com.example`).
    static func isReverseDNS(_ name: String) -> Bool {
        isPlausible(name) && name.contains(".")
    }

    private static func isApple(_ identifier: String) -> Bool {
        identifier.hasPrefix("com.apple.")
    }

    private static func isSDKCache(_ name: String) -> Bool {
        sdkCacheFolders.contains(name) || sdkCacheFolderPrefixes.contains { name.hasPrefix($0) }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private static func isRealDirectory(_ path: String) -> Bool {
        FileKind(path: path) == .directory
    }
}
