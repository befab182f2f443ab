import Foundation
import StocktakeModel
import StocktakePropertyLists
import StocktakeSQLite

/// Credential-named columns holding credential-like values in an unencrypted SQLite store (`ZUSER.ZPASSWORD`),
/// each probed for a few text values, SQLite's work bounded by steps; WebKit's local storage has its own table.
enum DatabaseSecrets {
    private static let valuesProbed = 20
    /// Real stores have tens of tables; 300 tables of 1,000 credential-named columns would be 300,000 queries.
    static let maxTables = 500
    static let maxColumnsProbed = 500
    /// The largest value read (`SQLITE_LIMIT_LENGTH`); a larger one is left out and listed, the rest read.
    static let maxValueBytes = 1 << 20
    /// SQLite steps for one store; each query also counts 1,000 objects against the meter (per store and per pass).
    static let maxSteps: Int64 = 5_000_000
    static let queryCost = 1_000

    /// Reads the store at `path` in place, immutable; `openedNormally`: a private copy, which SQLite may checkpoint.
    static func find(database path: String, openedNormally: Bool = false, meter: ContentMeter)
        -> ContentInspector.FileRead
    {
        var read = ContentInspector.FileRead()
        let connection: SQLiteConnection
        do {
            connection =
                openedNormally
                ? try SQLiteConnection(path: path, create: false) : try SQLiteConnection(readingImmutable: path)
        } catch {
            return ContentInspector.FileRead(notRead: (.unreadable, "cannot open the store: \(error)"))
        }
        connection.limitValueLength(to: Int32(maxValueBytes))
        func texts(_ sql: String, _ values: [SQLiteValue] = []) throws -> [String] {
            try meter.require(objects: queryCost)
            return try connection.rows(sql, values) { $0.text(0) ?? "" }
        }
        do {
            try connection.withStepLimit(maxSteps) { () throws in
                let tables = try texts(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' LIMIT \(maxTables + 1)"
                )
                if tables.count > maxTables { meter.stop("more than \(maxTables) tables in one store") }
                var probed = 0
                for table in tables.prefix(maxTables) where !table.isEmpty {
                    let columns = try texts("SELECT name FROM pragma_table_info(?)", [.text(table)])
                    if WebStorageSecrets.isItemTable(table, columns: columns) {
                        read.hits += try WebStorageSecrets.find(in: connection, meter: meter, leftOut: &read.leftOut)
                        continue
                    }
                    for column in columns {
                        guard let kind = SecretNames.kind(ofName: column), kind != .authorizationHeader else {
                            continue
                        }
                        probed += 1
                        if probed > maxColumnsProbed {
                            meter.stop("more than \(maxColumnsProbed) credential-named columns in one store")
                        }
                        let name = quoted(column)
                        do {
                            let values = try texts(
                                "SELECT \(name) FROM \(quoted(table)) WHERE typeof(\(name)) = 'text' AND length(\(name)) > 0 LIMIT \(valuesProbed)"
                            )
                            if let length = values.lazy.compactMap({
                                SecretNames.secretLength($0, as: kind, name: column)
                            }).first {
                                read.hits.append(
                                    PropertyListSecrets.Hit(
                                        place: "column \(table).\(column)", kind: kind, length: length))
                            }
                        } catch let error as SQLiteError where error.kind == .tooBig {
                            // One value too large to read: the column's probe stops there, every other column is read.
                            let why =
                                "column \(table).\(column) holds a value over \(maxValueBytes >> 20) MiB, not read"
                            read.leftOut.append((.valueTooLarge, why))
                        }
                    }
                }
            }
        } catch let error as SQLiteError where error.kind == .notADatabase {
            read.notRead = (.encrypted, "no SQLite header: an encrypted store (SQLCipher) or not a database")
        } catch let error as SQLiteError where error.kind == .interrupted {
            meter.stop("more than \(maxSteps) SQLite steps in one store")
        } catch is StoreReadError {
            // The meter stopped it and says why.
        } catch {
            read.notRead = (.unparseable, "the store does not read: \(error)")
        }
        if let stopped = meter.stopped { read.notRead = (.workLimit, stopped) }
        return read
    }

    /// An identifier as SQL writes it, so any name the schema holds is read as a name.
    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Credential-named properties of an unencrypted Realm file, which keeps their names as plain strings; their
/// values are not located, so the length is unknown (0).
enum RealmSecrets {
    /// Longest name taken; windows of a file read in parts overlap by more than this.
    static let maxName = 40

    static func find(_ bytes: [UInt8]) -> [PropertyListSecrets.Hit] {
        guard isRealm(bytes) else { return [] }
        var names: Set<String> = []
        collect(bytes, into: &names, continuing: false)
        return hits(names)
    }

    /// Whether the first bytes hold Realm's header (`T-DB` at byte 16; an encrypted file has none).
    static func isRealm(_ bytes: [UInt8]) -> Bool { bytes.count > 24 && bytes[16..<20].elementsEqual("T-DB".utf8) }

    /// Adds the names of one window; `continuing`: it starts in the last one's overlap, where a cut name was seen.
    static func collect(_ bytes: [UInt8], into names: inout Set<String>, continuing: Bool) {
        bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            var index = 0
            if continuing { while index < bytes.count && isNameByte[Int(bytes[index])] { index += 1 } }
            while index < bytes.count {
                // Zeros (most of a Realm file's free space) are passed over a word at a time.
                while index + 8 <= bytes.count,
                    UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self) == 0
                {
                    index += 8
                }
                guard index < bytes.count else { break }
                if isNameByte[Int(bytes[index])] {
                    start = index
                    while index < bytes.count && isNameByte[Int(bytes[index])] { index += 1 }
                    // A run cut by the window's end is taken up by the next window, which overlaps it.
                    if index < bytes.count, (4...maxName).contains(index - start) {
                        names.insert(String(decoding: bytes[start..<index], as: UTF8.self))
                    }
                }
                index += 1
            }
        }
    }

    private static let isNameByte: [Bool] = (0..<256).map { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
    }

    static func hits(_ names: Set<String>) -> [PropertyListSecrets.Hit] {
        names.sorted().compactMap { name in
            guard let kind = SecretNames.kind(ofName: name),
                [.password, .pin, .token, .apiKey, .privateKey].contains(kind)
            else { return nil }
            return PropertyListSecrets.Hit(place: "property \(name)", kind: kind, length: 0)
        }
    }
}
