import StocktakeModel

/// Tells what a regular file holds, first from its name (free: no read), then from its first bytes.
/// Runs once per file on the walk's hot path: no allocation, no Foundation strings.
public enum ContentSniffer {
    /// How many leading bytes the walker reads when the name does not settle the kind.
    /// Enough for every signature below, for `$archiver` near the top of a keyed archive, and for
    /// the `<!DOCTYPE plist` line after a standard XML declaration.
    public static let prefixLength = 96

    /// The kind settled by the file name (and size) alone, or nil when the first bytes must be read.
    /// `.plist`, `.data`, `.archive`, extension-less names and unknown extensions return nil.
    public static func kind(name: UnsafeBufferPointer<UInt8>, size: Int64) -> ContentKind? {
        if size == 0 { return .empty }
        return kindFromName(name)
    }

    /// The kind from the first bytes (pass up to `prefixLength`; fewer when the file is shorter).
    /// Signatures win; then text (UTF-8 without binary control bytes) and JSON. `name` breaks
    /// ties: `.m4a`/`.mov` for a generic MP4 brand, and `-wal`/`-shm`/`-journal`/Realm names for
    /// files whose content may carry no signature (an idle journal, the wal-index, encrypted Realm).
    public static func kind(prefix: UnsafeRawBufferPointer, name: UnsafeBufferPointer<UInt8>) -> ContentKind {
        if prefix.isEmpty { return .empty }
        if let kind = signatureKind(prefix, name: name) { return kind }
        let textual = textKind(prefix)
        if textual == .unknown, let kind = kindFromName(name), kind.hasNoReliableSignature { return kind }
        return textual
    }

    /// Name rules, size aside. Nil means "read the content".
    static func kindFromName(_ name: UnsafeBufferPointer<UInt8>) -> ContentKind? {
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
        ("sqlite", .sqlite), ("sqlite3", .sqlite), ("db", .sqlite), ("sqlitedb", .sqlite),
        ("storedata", .sqlite), ("sql", .sqlite),
        ("realm", .realm),
        ("jpg", .jpeg), ("jpeg", .jpeg), ("png", .png), ("gif", .gif), ("webp", .webp),
        ("heic", .heic), ("heif", .heic), ("ktx", .ktx),
        ("mp4", .mp4), ("m4v", .mp4), ("mov", .mov), ("m4a", .m4a),
        ("pdf", .pdf), ("zip", .zip), ("gz", .gzip),
        ("json", .json), ("txt", .text), ("log", .text), ("md", .text), ("csv", .text),
        ("binarycookies", .binaryCookies),
    ]
}

extension ContentKind {
    /// Kinds whose files may legitimately carry no signature (the wal-index has none, an idle
    /// journal is zeroed, an encrypted Realm hides its header, `.realm.note` is a FIFO), so the
    /// name decides when the content is not recognised.
    var hasNoReliableSignature: Bool {
        switch self {
        case .sqliteWAL, .sqliteSHM, .sqliteJournal, .realm, .realmAuxiliary: true
        default: false
        }
    }
}
