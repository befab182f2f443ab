import StocktakeFiles
import StocktakeModel

/// Reads the names iOS and the app's own process give per-app files and folders (see `BundleIdentity`).
/// Only listings are read; nothing is opened or followed.
enum IdentityClues {
    /// A folder's entries at a path relative to the container root; nil unless it is a real folder at every step.
    typealias Listing = (_ relative: String) -> [DirectoryListing.Entry]?

    /// Every clue below the container root, strongest source first.
    static func collect(containerRoot root: String) -> [IdentityClue] {
        collect { relative in
            guard isRealFolder(root, relative),
                let listing = try? DirectoryListing.read(Paths.join(root, relative), limit: 1_000)
            else {
                return nil
            }
            return listing.entries
        }
    }

    /// Every clue in what `listing` shows (a folder on disk, or the tree of an archive).
    static func collect(listing: Listing) -> [IdentityClue] {
        func names(_ folder: String, kind: FileKind) -> [String] {
            (listing(folder) ?? []).filter { $0.kind == kind }.map(\.name).sorted()
        }
        guard listing("Library") != nil else { return [] }
        var clues: [IdentityClue] = []
        func add(_ identifier: String?, _ source: BundleIdentifierSource, _ path: String) {
            guard let identifier, BundleIdentifierRules.isPlausible(identifier) else { return }
            clues.append(IdentityClue(identifier: identifier, source: source, path: path))
        }
        let splashBoard = "Library/SplashBoard/Snapshots"
        for name in names(splashBoard, kind: .directory) {
            add(BundleIdentifierRules.fromSnapshotFolder(name), .launchSnapshot, splashBoard + "/" + name)
        }
        for name in names("Library/Caches/Snapshots", kind: .directory) {
            add(name, .launchSnapshot, "Library/Caches/Snapshots/" + name)
        }
        for name in names("Library/Saved Application State", kind: .directory) where name.hasSuffix(".savedState") {
            add(String(name.dropLast(".savedState".count)), .savedState, "Library/Saved Application State/" + name)
        }
        for name in names("Library/HTTPStorages", kind: .directory) where BundleIdentifierRules.isReverseDNS(name) {
            add(name, .httpStorage, "Library/HTTPStorages/" + name)
        }
        for name in names("Library/Caches", kind: .directory)
        where BundleIdentifierRules.isReverseDNS(name) && !name.hasPrefix("com.apple.")
            && holdsWhatIOSMakes(listing("Library/Caches/" + name))
        {
            add(name, .cachesFolder, "Library/Caches/" + name)
        }
        for name in names("Library/WebKit", kind: .directory) where BundleIdentifierRules.isReverseDNS(name) {
            add(name, .webKitFolder, "Library/WebKit/" + name)
        }
        for name in names("Library/Preferences", kind: .regularFile) where name.hasSuffix(".plist") {
            let domain = String(name.dropLast(".plist".count))
            guard BundleIdentifierRules.isReverseDNS(domain), !BundleIdentifierRules.isKnownNonAppDomain(domain) else {
                continue
            }
            add(domain, .preferencesFile, "Library/Preferences/" + name)
        }
        return dropSuffixedPreferences(clues)
    }

    /// `com.apple.weather.internal` beside `com.apple.weather`: suites an app names after itself are no
    /// candidates of their own.
    private static func dropSuffixedPreferences(_ clues: [IdentityClue]) -> [IdentityClue] {
        let domains = Set(clues.filter { $0.source == .preferencesFile }.map(\.identifier))
        return clues.filter { clue in
            clue.source != .preferencesFile || !domains.contains { clue.identifier.hasPrefix($0 + ".") }
        }
    }

    /// `Library/Caches/<id>/` is the app process's own when it holds what URLSession or Apple frameworks put
    /// there; an SDK's reverse-DNS cache folder holds its own files.
    private static func holdsWhatIOSMakes(_ entries: [DirectoryListing.Entry]?) -> Bool {
        (entries ?? []).contains { SystemCatalogue.item(in: .cachesFolder, named: Array($0.name.utf8)) != nil }
    }

    /// A real folder at every step below the root: a link anywhere on the way is not followed.
    private static func isRealFolder(_ root: String, _ relative: String) -> Bool {
        var path = root
        for component in relative.split(separator: "/") {
            path += "/" + component
            guard FileKind(path: path) == .directory else { return false }
        }
        return true
    }
}
