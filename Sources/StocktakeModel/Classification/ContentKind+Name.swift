extension ContentKind {
    /// The kind a file's name settles, size and content aside; nil means "read the content" (`.plist`, `.data`,
    /// `.archive`, extension-less names, unknown extensions). The one name table: the walk, the archive and backup
    /// readers (through `ContentSniffer`) and `InventoryBuilder` use it. Runs once per file on the walk's hot path:
    /// no allocation, no Foundation strings.
    public static func named(_ name: UnsafeBufferPointer<UInt8>) -> ContentKind? {
        if name.hasPrefix("._") { return .appleDouble }
        // The companion and Realm suffixes all end in "l", "m", "k" or "e": one test spares most names the five checks.
        switch name.last.map({ $0 | 0x20 }) {
        case UInt8(ascii: "l"), UInt8(ascii: "m"), UInt8(ascii: "k"), UInt8(ascii: "e"):
            if let kind = sqliteCompanionKind(name) { return kind }
            if name.hasSuffixIgnoringASCIICase(".realm.lock") || name.hasSuffixIgnoringASCIICase(".realm.note") {
                return .realmAuxiliary
            }
        default: break
        }
        guard let dot = extensionDot(name), let key = ExtensionKey(name, from: dot + 1) else { return nil }
        for (candidate, kind) in extensionKinds where candidate == key { return kind }
        return nil
    }

    /// `X-wal`, `X-shm`, `X-journal`: SQLite's companions, named after their database.
    private static func sqliteCompanionKind(_ name: UnsafeBufferPointer<UInt8>) -> ContentKind? {
        if name.count > 4, name.hasSuffixIgnoringASCIICase("-wal") { return .sqliteWAL }
        if name.count > 4, name.hasSuffixIgnoringASCIICase("-shm") { return .sqliteSHM }
        if name.count > 8, name.hasSuffixIgnoringASCIICase("-journal") { return .sqliteJournal }
        return nil
    }

    /// Index of the dot that starts the extension. A leading dot (`.hidden`) starts no extension.
    private static func extensionDot(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = name.count - 1
        while index > 0 {
            if name[index] == UInt8(ascii: ".") { return index }
            if name.count - index > ExtensionKey.maxLength { return nil }
            index -= 1
        }
        return nil
    }

    /// Extensions unambiguous enough to trust without reading (lowercase).
    private static let extensionKinds: [(ExtensionKey, ContentKind)] = extensionTable.map { (ExtensionKey($0.0), $0.1) }

    private static let extensionTable: [(StaticString, ContentKind)] = [
        ("sqlite", .sqlite), ("sqlite3", .sqlite), ("db", .sqlite), ("sqlitedb", .sqlite), ("storedata", .sqlite),
        ("sql", .sqlite), ("realm", .realm), ("jpg", .jpeg), ("jpeg", .jpeg), ("png", .png), ("gif", .gif),
        ("webp", .webp), ("heic", .heic), ("heif", .heic), ("ktx", .ktx), ("mp4", .mp4), ("m4v", .mp4), ("mov", .mov),
        ("m4a", .m4a), ("pdf", .pdf), ("zip", .zip), ("gz", .gzip), ("json", .json), ("txt", .text), ("log", .text),
        ("md", .text), ("csv", .text), ("binarycookies", .binaryCookies),
    ]
}
