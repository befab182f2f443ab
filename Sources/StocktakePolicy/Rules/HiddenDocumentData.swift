import StocktakeModel

/// What in Documents a user would not recognise as a document of theirs, judged from the name and kind only.
/// Shared by `documents-hidden-data` (which reports it) and `excluded-user-document` (which leaves it alone:
/// excluding re-creatable internals is allowed, excluding user documents is not).
enum HiddenDocumentData: Sendable, Equatable {
    case database, propertyList, log, lock, dotfile
    /// Whole folders: reported once, with everything beneath them.
    case hiddenFolder, sdkFolder, cacheFolder, databaseFolder

    var isFolder: Bool { [.hiddenFolder, .sdkFolder, .cacheFolder, .databaseFolder].contains(self) }

    /// The entry at `index` of the inventory, or nil for something that may well be a user document.
    static func classify(_ index: Int32, in inventory: Inventory) -> HiddenDocumentData? {
        let entry = inventory.entries[Int(index)]
        let name = PathText.display(inventory.name(index))
        return entry.isDirectory ? classifyFolder(name) : classifyFile(name, kind: entry.kind)
    }

    static func classifyFolder(_ name: String) -> HiddenDocumentData? {
        let lowered = name.lowercased()
        if name.hasPrefix(".") { return .hiddenFolder }
        if lowered.hasSuffix(".realm.management") { return .databaseFolder }
        if sdkFolderNames.contains(lowered) || isReverseDNS(lowered) { return .sdkFolder }
        if words(of: name).contains(where: { cacheWords.contains($0) }) { return .cacheFolder }
        return nil
    }

    static func classifyFile(_ name: String, kind: ContentKind) -> HiddenDocumentData? {
        let lowered = name.lowercased()
        let ext = pathExtension(lowered)
        // Content only counts when the name does not already say what the file is: a document type of the
        // app's own (a custom extension) may well be SQLite or a plist inside.
        let nameIsOpaque = ext.isEmpty || opaqueExtensions.contains(ext)
        if databaseExtensions.contains(ext) || isDatabaseSidecar(lowered)
            || (nameIsOpaque && databaseKinds.contains(kind))
        {
            return .database
        }
        if ext == "plist" || (nameIsOpaque && plistKinds.contains(kind)) { return .propertyList }
        if ext == "log" || lowered.contains(".log.") { return .log }
        if ext == "lock" || ext == "lck" { return .lock }
        if name.hasPrefix(".") { return .dotfile }
        return nil
    }

    private static let databaseExtensions: Set<String> = ["sqlite", "sqlite3", "sqlitedb", "db", "realm"]
    private static let opaqueExtensions: Set<String> = ["store", "dat", "data", "bin"]
    private static let databaseKinds: Set<ContentKind> = [
        .sqlite, .sqliteWAL, .sqliteSHM, .sqliteJournal, .realm, .realmAuxiliary,
    ]
    private static let plistKinds: Set<ContentKind> = [.binaryPlist, .xmlPlist, .keyedArchive]
    /// Folders third-party SDKs create where they are told to (lowercased).
    private static let sdkFolderNames: Set<String> = [
        "crashlytics", "fabric", "firebase", "mixpanel", "amplitude", "sentry", "bugsnag", "appsflyer",
    ]
    private static let cacheWords: Set<String> = ["cache", "caches", "cached"]

    /// SQLite's `-wal`, `-shm`, `-journal` and Realm's `.note` next to a database name.
    private static func isDatabaseSidecar(_ lowered: String) -> Bool {
        for suffix in ["-wal", "-shm", "-journal"] where lowered.hasSuffix(suffix) {
            let base = String(lowered.dropLast(suffix.count))
            if databaseExtensions.contains(pathExtension(base)) { return true }
        }
        return lowered.hasSuffix(".realm.note")
    }

    private static func pathExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `com.vendor.thing`, `io.sentry`: how SDKs and system services name their folders; spaces never.
    private static func isReverseDNS(_ lowered: String) -> Bool {
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, ["com", "org", "net", "io"].contains(parts[0]) else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty
                && part.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
                }
        }
    }

    /// Lowercased words of a name split at punctuation and camel-case humps: `ImageCache` → image, cache.
    private static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase && previousWasLower {
                words.append(current)
                current = ""
            }
            current.append(contentsOf: character.lowercased())
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
