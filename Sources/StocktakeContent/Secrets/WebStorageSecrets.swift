import StocktakeModel
import StocktakePropertyLists
import StocktakeSQLite

/// WebKit's local storage as a `WKWebView`'s pages leave it (`Library/WebKit/…/*.localstorage`,
/// `localstorage.sqlite3`, older iOS's `Library/Caches/*.localstorage`): one `ItemTable(key, value)` per origin,
/// each value the page's string in UTF-16 (a blob, little-endian as WebKit writes it; older builds kept text). A
/// key that says secret with a value that fits it is a hit, and so is a value that holds a secret of its own
/// (a JSON object with an `access_token`, a bare JWT). Places name the key, never the value.
enum WebStorageSecrets {
    private static let rowsProbed = 2_000
    private static let valueBytesRead = 64 << 10

    /// Whether a table is WebKit's `ItemTable`: that name and a `key` and `value` column.
    static func isItemTable(_ table: String, columns: [String]) -> Bool {
        table == "ItemTable" && columns.contains("key") && columns.contains("value")
    }

    /// Reads every row it can: a value over the connection's length limit fails the query that reads it, so the
    /// rows are listed first (their ids, nothing loaded), then read one by one, and a row too large to read is
    /// left out (`leftOut` says which) while the others are read.
    static func find(
        in connection: SQLiteConnection, meter: ContentMeter, leftOut: inout [(ContentCoverage.Reason, String)]
    ) throws -> [PropertyListSecrets.Hit] {
        try meter.require(objects: DatabaseSecrets.queryCost)
        let ids = try connection.rows("SELECT rowid FROM ItemTable WHERE typeof(key) = 'text' LIMIT \(rowsProbed)") {
            $0.int64(0)
        }
        let statement = try connection.prepare(
            "SELECT key, substr(value, 1, \(valueBytesRead)), typeof(value) FROM ItemTable WHERE rowid = ?")
        var rows: [(String, [UInt8], String)] = []
        for id in ids {
            try meter.require(objects: 10)
            do {
                try statement.bind([.integer(id)])
                if try statement.step() {
                    rows.append((statement.text(0) ?? "", statement.bytes(1) ?? [], statement.text(2) ?? ""))
                }
            } catch let error as SQLiteError where error.isTooBig {
                let why =
                    "local storage row \(id) holds a value over \(DatabaseSecrets.maxValueBytes >> 20) MiB, not read"
                leftOut.append((.valueTooLarge, why))
            }
        }
        var hits: [PropertyListSecrets.Hit] = []
        for (key, bytes, type) in rows where !key.isEmpty {
            let value = type == "blob" ? utf16(bytes) : String(decoding: bytes, as: UTF8.self)
            let place = "local storage key \(String(key.prefix(100)))"
            if let kind = SecretNames.kind(ofName: key),
                let length = SecretNames.secretLength(value, as: kind, name: key)
            {
                let shaped = SecretShapes.find(in: Substring(value)).first
                hits.append(
                    PropertyListSecrets.Hit(place: place, kind: shaped?.kind ?? kind, length: shaped?.length ?? length))
                continue
            }
            // A structured value (JSON a page stored) is read as a text file would be, one hit per kind.
            var kinds: Set<SensitiveItem.Kind> = []
            for hit in TextSecrets.find(in: Array(value.utf8)) where kinds.insert(hit.kind).inserted {
                hits.append(PropertyListSecrets.Hit(place: place, kind: hit.kind, length: hit.length))
            }
        }
        return hits
    }

    /// UTF-16 code units, little-endian; an odd trailing byte is dropped.
    private static func utf16(_ bytes: [UInt8]) -> String {
        let units = stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
        return String(decoding: units, as: UTF16.self)
    }
}
