import StocktakeModel
import StocktakePropertyLists
import StocktakeSQLite

/// WebKit's local storage (`*.localstorage`, `localstorage.sqlite3`): one `ItemTable(key, value)` per origin, each
/// value a page's string in UTF-16 (a little-endian blob; older builds kept text). Places name keys, never values.
enum WebStorageSecrets {
    private static let rowsProbed = 2_000
    private static let valueBytesRead = 64 << 10

    static func isItemTable(_ table: String, columns: [String]) -> Bool {
        table == "ItemTable" && columns.contains("key") && columns.contains("value")
    }

    /// Reads the rows one by one: a value over the length limit fails its query, so only that row is left out.
    static func find(
        in connection: SQLiteConnection, meter: ContentMeter, leftOut: inout [(ContentCoverage.Reason, String)]
    ) throws -> [PropertyListSecrets.Hit] {
        try meter.require(objects: DatabaseSecrets.queryCost)
        let ids = try connection.rows("SELECT rowid FROM ItemTable WHERE typeof(key) = 'text' LIMIT \(rowsProbed)") {
            $0.int64(0)
        }
        let statement = try connection.prepare(
            "SELECT key, substr(value, 1, \(valueBytesRead)), typeof(value) FROM ItemTable WHERE rowid = ?")
        var hits: [PropertyListSecrets.Hit] = []
        for id in ids {
            try meter.require(objects: 10)
            do {
                try statement.bind([.integer(id)])
                guard try statement.step(), let key = statement.text(0), !key.isEmpty else { continue }
                let bytes = statement.bytes(1) ?? []
                let value = statement.text(2) == "blob" ? utf16(bytes) : String(decoding: bytes, as: UTF8.self)
                hits += judge(value, key: key)
            } catch let error as SQLiteError where error.kind == .tooBig {
                let why =
                    "local storage row \(id) holds a value over \(DatabaseSecrets.maxValueBytes >> 20) MiB, not read"
                leftOut.append((.valueTooLarge, why))
            }
        }
        return hits
    }

    private static func judge(_ value: String, key: String) -> [PropertyListSecrets.Hit] {
        let place = "local storage key \(String(key.prefix(100)))"
        if let secret = SecretNames.secret(value, storedUnder: key) {
            return [PropertyListSecrets.Hit(place: place, kind: secret.kind, length: secret.length)]
        }
        // A structured value (JSON a page stored) is read as a text file would be, one hit per kind.
        var kinds: Set<SensitiveItem.Kind> = []
        return TextSecrets.find(in: Array(value.utf8)).filter { kinds.insert($0.kind).inserted }.map {
            PropertyListSecrets.Hit(place: place, kind: $0.kind, length: $0.length)
        }
    }

    /// UTF-16 code units, little-endian; an odd trailing byte is dropped.
    private static func utf16(_ bytes: [UInt8]) -> String {
        let units = stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
        return String(decoding: units, as: UTF16.self)
    }
}
