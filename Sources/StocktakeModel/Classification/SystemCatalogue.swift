/// What iOS itself (or an Apple framework running in the app) makes inside a data container: one table,
/// read by the scanner (location, system-managed, backup) and by the rules (which leave these alone: the app
/// cannot change them). The catalogue table of docs/reports.md is rendered from it (a test keeps the two equal).
public enum SystemCatalogue {
    /// Whether iOS backs an item up, and how we know.
    public enum Backup: String, Sendable {
        /// Seen in real device backups: iOS backs it up (unless flagged).
        case backedUp
        /// Never in a device backup: the state is `excludedBySystem`.
        case notBackedUp
        /// Not established: the usual evidence (attributes of the export) decides.
        case undetermined
    }

    /// The folder an item sits in.
    public enum Parent: String, Sendable, Hashable {
        case root = ""
        case library = "Library/"
        case caches = "Library/Caches/"
        /// Any folder directly in `Library/Caches/` (URLSession names it after the process's bundle id).
        case cachesFolder = "Library/Caches/<folder>/"
        case tmp = "tmp/"
    }

    public struct Item: Sendable {
        public let parent: Parent
        /// The entry's name, or the start of it when `isPrefix`; a name starting with `*` matches anywhere
        /// in the entry's name (`*.localstorage` with `isPrefix`: `Library/Caches/*.localstorage*`).
        public let name: String
        public let isPrefix: Bool
        public let backup: Backup
        /// What it is, for the documentation and the report.
        public let what: String
        /// Where the facts come from.
        public let source: String

        /// `name` ending in `*` is a prefix.
        init(_ parent: Parent, _ name: String, _ backup: Backup, _ what: String, _ source: String) {
            (self.parent, self.backup, self.what, self.source) = (parent, backup, what, source)
            isPrefix = name.hasSuffix("*")
            self.name = isPrefix ? String(name.dropLast()) : name
        }

        /// How the documentation shows it: `Library/SplashBoard`, `Library/Caches/com.apple.*`.
        public var pattern: String { parent.rawValue + name + (isPrefix ? "*" : "") }

        func matches(_ candidate: UnsafeBufferPointer<UInt8>) -> Bool {
            if name.hasPrefix("*") { return ByteSearch.contains(name.utf8.dropFirst(), in: Array(candidate)[...]) }
            return isPrefix ? candidate.starts(with: name.utf8) : candidate.elementsEqual(name.utf8)
        }
    }

    private static let realDevice = "real layouts: iOS 15.3.1 phone"
    private static let realBackup = "real iOS 14.3 device backup"
    private static let absentFromBackup = "absent from every app domain of the " + realBackup

    /// The table. Order matters only for display; names do not overlap within a parent.
    public static let items: [Item] = [
        Item(
            .root, ".com.apple.mobile_container_manager.metadata.plist", .notBackedUp,
            "container manager's record of the container (devices and simulators alike)",
            "\(realDevice) (every container); \(absentFromBackup)"),
        Item(
            .root, "SystemData", .notBackedUp, "system data kept for the app",
            "Apple backup domain rules; \(absentFromBackup)"),
        Item(
            .root, "StoreKit", .notBackedUp, "StoreKit's receipt and transaction store",
            "\(realDevice) (54 containers); \(absentFromBackup)"),
        Item(
            .library, "SplashBoard", .notBackedUp, "launch and app-switcher snapshots",
            "\(realDevice) (108 containers); \(absentFromBackup)"),
        Item(
            .library, "Saved Application State", .notBackedUp, "UIKit state restoration archives",
            "\(realDevice) (84 containers); \(absentFromBackup)"),
        Item(
            .library, "SyncedPreferences", .undetermined, "iCloud key-value store's local copy",
            "\(realDevice) (12 containers); no app of the \(realBackup) used it"),
        Item(.library, "Cookies", .backedUp, "HTTPCookieStorage's Cookies.binarycookies", "\(realBackup) (7 apps)"),
        Item(
            .library, "WebKit", .backedUp,
            "WKWebView website data (IndexedDB, LocalStorage, WebSQL, content rule lists)",
            "\(realBackup) (7 apps: WebsiteData, ContentRuleLists)"),
        Item(
            .library, "HTTPStorages", .undetermined, "URLSession's per-process HSTS and cookie stores",
            "\(realDevice) (58 containers)"),
        Item(
            .library, "LanguageModeling", .undetermined, "the keyboard's dynamic lexicon for the app",
            "\(realDevice) (17 containers)"),
        Item(
            .library, "com.apple.*", .undetermined,
            "Apple frameworks' own folders (com.apple.iTunesStore, com.apple.corespotlightservice, …)",
            "\(realDevice); \(realBackup)"),
        Item(
            .caches, "Snapshots", .notBackedUp, "launch snapshots on older iOS versions",
            "Caches are never backed up (iOS Data Storage Guidelines)"),
        Item(
            .caches, "com.apple.*", .notBackedUp,
            "Apple frameworks' caches (com.apple.dyld, com.apple.WebKit.*, com.apple.metal, …)",
            "\(realDevice) (com.apple.dyld in 63 containers)"),
        Item(
            .caches, "WebKit", .notBackedUp, "WKWebView's network and CacheStorage caches",
            "\(realDevice) (37 containers)"),
        Item(
            .caches, "*.localstorage*", .notBackedUp,
            "WebKit's local storage as older iOS kept it (with -wal and -shm, the main file sometimes gone)",
            "real containers made by older iOS (UIWebView local storage); Caches are never backed up"),
        Item(
            .cachesFolder, "Cache.db*", .notBackedUp, "URLCache's database (with -wal and -shm)",
            "\(realDevice) (55 containers)"),
        Item(
            .cachesFolder, "fsCachedData", .notBackedUp, "URLCache's large responses",
            "\(realDevice) (38 containers)"),
        Item(
            .cachesFolder, "com.apple.*", .notBackedUp,
            "Apple frameworks' per-process caches (com.apple.metal, com.apple.opengl, …)",
            "\(realDevice) (com.apple.metal in 88 containers)"),
        Item(.tmp, "WebKit", .notBackedUp, "WKWebView's temporary files", "\(realDevice) (4 containers)"),
    ]

    /// The catalogue item for an entry called `name` in `parent`, if iOS makes it. Called for every entry
    /// the walk meets in these folders, so each parent's few items are looked up once, not filtered per call.
    /// Concrete, not generic: the walk calls it from another module, where a generic runs unspecialized.
    public static func item(in parent: Parent, named name: UnsafeBufferPointer<UInt8>) -> Item? {
        itemsByParent[parent]?.first { $0.matches(name) }
    }

    public static func item(in parent: Parent, named name: [UInt8]) -> Item? {
        name.withUnsafeBufferPointer { item(in: parent, named: $0) }
    }

    private static let itemsByParent = Dictionary(grouping: items, by: \.parent)

    /// Whether a name directly in `Library/` is one iOS makes (the standard folders aside).
    public static func isSystemLibraryFolder(_ name: ArraySlice<UInt8>) -> Bool {
        name.withUnsafeBufferPointer { item(in: .library, named: $0) } != nil
    }
}
