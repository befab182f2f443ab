import StocktakeFiles
import StocktakeModel

/// The names iOS and the app's process give per-app files and folders (see `BundleIdentity`), from listings alone.
enum IdentityClues {
    /// A folder's entries at a path relative to the container root; nil unless it is a real folder at every step.
    typealias Listing = (_ relative: String) -> [DirectoryListing.Entry]?

    /// Every clue below the container root, strongest source first.
    static func collect(containerRoot root: String) -> [IdentityClue] {
        collect { relative in
            guard isRealFolder(root, relative) else { return nil }
            return try? DirectoryListing.read(Paths.join(root, relative), limit: 1_000).entries
        }
    }

    /// Every clue in what `listing` shows (a folder on disk, or the tree of an archive).
    static func collect(listing: Listing) -> [IdentityClue] {
        guard listing("Library") != nil else { return [] }
        var clues: [IdentityClue] = []
        // A clue for each entry of `kind` in `folder` whose name `identifier` reads an id from.
        func each(
            _ folder: String, kind: FileKind = .directory, _ source: BundleIdentifierSource,
            _ identifier: (String) -> String?
        ) {
            for name in (listing(folder) ?? []).filter({ $0.kind == kind }).map(\.name).sorted() {
                guard let id = identifier(name), BundleIdentifierRules.isPlausible(id) else { continue }
                clues.append(IdentityClue(identifier: id, source: source, path: Paths.join(folder, name)))
            }
        }
        // Names any library may create count only when they look like reverse DNS.
        func reverseDNS(_ name: String) -> String? { BundleIdentifierRules.isReverseDNS(name) ? name : nil }
        func without(_ suffix: String, _ name: String) -> String? {
            name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : nil
        }
        each("Library/SplashBoard/Snapshots", .launchSnapshot, BundleIdentifierRules.fromSnapshotFolder)
        each("Library/Caches/Snapshots", .launchSnapshot) { $0 }
        each("Library/Saved Application State", .savedState) { without(".savedState", $0) }
        each("Library/HTTPStorages", .httpStorage, reverseDNS)
        each("Library/Caches", .cachesFolder) { name in
            guard let id = reverseDNS(name), !id.hasPrefix("com.apple.") else { return nil }
            return holdsWhatIOSMakes(listing(Paths.join("Library/Caches", name))) ? id : nil
        }
        each("Library/WebKit", .webKitFolder, reverseDNS)
        each("Library/Preferences", kind: .regularFile, .preferencesFile) { name in
            guard let domain = without(".plist", name).flatMap(reverseDNS) else { return nil }
            return BundleIdentifierRules.isKnownNonAppDomain(domain) ? nil : domain
        }
        return dropSuffixedPreferences(clues)
    }

    /// `com.apple.weather.internal` beside `com.apple.weather`: an app's own suites are no candidates of their own.
    private static func dropSuffixedPreferences(_ clues: [IdentityClue]) -> [IdentityClue] {
        let domains = Set(clues.filter { $0.source == .preferencesFile }.map(\.identifier))
        return clues.filter { clue in
            clue.source != .preferencesFile || !domains.contains { clue.identifier.hasPrefix($0 + ".") }
        }
    }

    /// `Library/Caches/<id>/` is the app's own when it holds what URLSession or Apple frameworks put there.
    private static func holdsWhatIOSMakes(_ entries: [DirectoryListing.Entry]?) -> Bool {
        (entries ?? []).contains { SystemCatalogue.item(in: .cachesFolder, named: Array($0.name.utf8)) != nil }
    }

    /// A real folder at every step below the root: a link anywhere on the way is not followed.
    private static func isRealFolder(_ root: String, _ relative: String) -> Bool {
        var path = root
        for component in relative.split(separator: "/") {
            path = Paths.join(path, String(component))
            guard FileKind(path: path) == .directory else { return false }
        }
        return true
    }
}
