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

    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .empty: "empty"
        case .sqlite: "sqlite"
        case .sqliteWAL: "sqliteWAL"
        case .sqliteSHM: "sqliteSHM"
        case .sqliteJournal: "sqliteJournal"
        case .realm: "realm"
        case .realmAuxiliary: "realmAuxiliary"
        case .binaryPlist: "binaryPlist"
        case .xmlPlist: "xmlPlist"
        case .keyedArchive: "keyedArchive"
        case .ktx: "ktx"
        case .jpeg: "jpeg"
        case .png: "png"
        case .heic: "heic"
        case .gif: "gif"
        case .webp: "webp"
        case .mp4: "mp4"
        case .mov: "mov"
        case .m4a: "m4a"
        case .pdf: "pdf"
        case .zip: "zip"
        case .gzip: "gzip"
        case .appleDouble: "appleDouble"
        case .binaryCookies: "binaryCookies"
        case .json: "json"
        case .text: "text"
        }
    }

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
