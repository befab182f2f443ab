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
        return ContentKind.named(name)
    }

    /// The kind from the first bytes (pass up to `prefixLength`; fewer when the file is shorter).
    /// Signatures win; then text (UTF-8 without binary control bytes) and JSON. `name` breaks
    /// ties: `.m4a`/`.mov` for a generic MP4 brand, and `-wal`/`-shm`/`-journal`/Realm names for
    /// files whose content may carry no signature (an idle journal, the wal-index, encrypted Realm, the
    /// `.realm.note` FIFO).
    public static func kind(prefix: UnsafeRawBufferPointer, name: UnsafeBufferPointer<UInt8>) -> ContentKind {
        if prefix.isEmpty { return .empty }
        if let kind = signatureKind(prefix, name: name) { return kind }
        let textual = textKind(prefix)
        return switch textual == .unknown ? ContentKind.named(name) : nil {
        case let kind? where [.sqliteWAL, .sqliteSHM, .sqliteJournal, .realm, .realmAuxiliary].contains(kind): kind
        default: textual
        }
    }
}
