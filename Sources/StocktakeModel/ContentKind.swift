/// What a regular file holds, from its name, its place, or its first bytes (contract values).
public enum ContentKind: UInt8, CaseIterable, Sendable {
    case unknown
    case empty
    case sqlite, sqliteWAL, sqliteSHM, sqliteJournal
    case realm, realmAuxiliary
    case binaryPlist, xmlPlist, keyedArchive
    case ktx, jpeg, png, heic, gif, webp
    case mp4, mov, m4a
    case pdf, zip, gzip
    case appleDouble, binaryCookies
    case json, text

    /// The case's name (contract values), worked out once: writers ask for it per entry.
    public var name: String { Self.names[Int(rawValue)] }
    private static let names = allCases.map { "\($0)" }

    /// Broad family for the "kinds of content" summary.
    public var family: String {
        switch self {
        case .sqlite, .sqliteWAL, .sqliteSHM, .sqliteJournal, .realm, .realmAuxiliary: "database"
        case .binaryPlist, .xmlPlist, .keyedArchive: "propertyList"
        case .ktx, .jpeg, .png, .heic, .gif, .webp: "image"
        case .mp4, .mov, .m4a: "media"
        case .pdf: "document"
        case .zip, .gzip: "archive"
        case .json, .text: "text"
        case .appleDouble: "transport"
        case .binaryCookies: "cookies"
        case .empty: "empty"
        case .unknown: "other"
        }
    }
}
