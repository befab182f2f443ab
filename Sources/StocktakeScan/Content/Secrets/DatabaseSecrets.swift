import Foundation
import StocktakeModel
import StocktakeSQLite

/// Credential-like columns holding credential-like values in an unencrypted SQLite store (Core Data's `Z*`
/// tables included: `ZUSER.ZPASSWORD`). Opened read-only and immutable (nothing is written beside it), the
/// schema read from `sqlite_master` (views are left alone), each column probed for a few non-empty text
/// values, with SQLite's work bounded by steps. An encrypted store (SQLCipher) has no SQLite header and never
/// comes here. WebKit's local storage is a store of this kind with a table of its own (`WebStorageSecrets`).
enum DatabaseSecrets {
    private static let valuesProbed = 20

    static func find(database path: String) -> [PropertyListSecrets.Hit] {
        guard let connection = try? SQLiteConnection(readingImmutable: path) else { return [] }
        connection.limitValueLength(to: 1 << 20)
        return (try? connection.withStepLimit(5_000_000) { () throws -> [PropertyListSecrets.Hit] in
            let tables = try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' LIMIT 500") {
                $0.text(0) ?? ""
            }
            var hits: [PropertyListSecrets.Hit] = []
            for table in tables where !table.isEmpty {
                let columns = try connection.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]) { $0.text(0) ?? "" }
                if WebStorageSecrets.isItemTable(table, columns: columns) {
                    hits += try WebStorageSecrets.find(in: connection)
                    continue
                }
                for column in columns {
                    guard let kind = SecretNames.kind(ofName: column), kind != .authorizationHeader else { continue }
                    let values = try connection.rows(
                        "SELECT \(quoted(column)) FROM \(quoted(table)) WHERE typeof(\(quoted(column))) = 'text' AND length(\(quoted(column))) > 0 LIMIT \(valuesProbed)"
                    ) { $0.text(0) ?? "" }
                    let lengths = values.compactMap { SecretNames.secretLength($0, as: kind) }
                    if let first = lengths.first {
                        hits.append(PropertyListSecrets.Hit(place: "column \(table).\(column)", kind: kind, length: first))
                    }
                }
            }
            return hits
        }) ?? []
    }

    /// An identifier as SQL writes it, so any name the schema holds is read as a name.
    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// An unencrypted Realm file (`T-DB` at byte 16; an encrypted one has no readable header) whose schema names
/// credential-like properties. Realm keeps property names as plain strings in the file; their values are not
/// located, so the length is unknown (0).
enum RealmSecrets {
    static func find(_ bytes: [UInt8]) -> [PropertyListSecrets.Hit] {
        guard bytes.count > 24, bytes[16..<20].elementsEqual("T-DB".utf8) else { return [] }
        var names: Set<String> = []
        var run: [UInt8] = []
        for byte in bytes {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F {
                run.append(byte)
                continue
            }
            if (4...40).contains(run.count) { names.insert(String(decoding: run, as: UTF8.self)) }
            run.removeAll(keepingCapacity: true)
        }
        return names.sorted().compactMap { name in
            guard let kind = SecretNames.kind(ofName: name), [.password, .pin, .token, .apiKey, .privateKey].contains(kind) else { return nil }
            return PropertyListSecrets.Hit(place: "property \(name)", kind: kind, length: 0)
        }
    }
}
