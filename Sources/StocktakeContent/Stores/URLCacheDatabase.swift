import Foundation
import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists
import StocktakeSQLite

/// One cached response of URLCache's `Cache.db`.
public struct CachedResponse: Sendable, Equatable {
    public let requestURL: String
    /// Every string-to-string dictionary of the request object's plist (the request's headers).
    public let requestHeaders: [String: String]
    public let responseHeaders: [String: String]
    /// The body's first bytes, and where they came from: `Cache.db` or `fsCachedData/<name>`.
    public let body: [UInt8]
    public let bodyLocation: String
}

/// Reads URLCache's `Cache.db` from a private copy with its `-wal`: opened in place it would get a `-shm` (a write
/// into the audited tree), and the immutable mode ignores the `-wal`, where the newest responses often are.
public enum URLCacheDatabase {
    static let maxCopiedBytes: Int64 = 64 << 20
    static let maxObjectBytes = 1 << 20

    static let maxRows = 10_000
    /// A body's first bytes read; bodies read from one database in all (10,000 of 256 KiB would be 2.5 GB).
    static let maxBodyBytes = 256 << 10
    static let maxBodyBytesPerFile = 16 << 20

    /// The same from a path (tests, tools): the database, its `-wal` beside it and its `fsCachedData/` folder.
    public static func read(database: String, meter: ContentMeter, _ each: (CachedResponse) -> Void)
        throws(StoreReadError)
    {
        var options = RegularFile.Options.insideContainer(maxBytes: maxCopiedBytes)
        let file: RegularFile
        do {
            file = try RegularFile.open(database, options: &options)
        } catch {
            throw StoreReadError("\((database as NSString).lastPathComponent): \(error)")
        }
        let wal = try? RegularFile.open(database + "-wal", options: &options)
        let folder = open((database as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try read(database: file, wal: wal, bodies: folder >= 0 ? OpenFolder(folder) : nil, meter: meter, each)
    }

    /// Streams the responses of an open `Cache.db` to `each`, holding only the current row; bodies on the file system
    /// come from `bodies/fsCachedData/`. A row, file or body joined to many responses is handed on once (hostile
    /// stores repeat them), and all that is read counts against `meter`, which says why a read stopped.
    static func read(
        database: RegularFile, wal: RegularFile?, bodies: OpenFolder?, meter: ContentMeter,
        _ each: (CachedResponse) -> Void
    ) throws(StoreReadError) {
        guard let scratch = ScratchFolder("stocktake-urlcache") else {
            throw StoreReadError("cannot make a temporary folder: \(SystemError.currentText)")
        }
        // The copies go with `scratch`: keep it until SQLite is done with them.
        defer { withExtendedLifetime(scratch) {} }
        try copy(database, as: "Cache.db", into: scratch)
        if let wal { try copy(wal, as: "Cache.db-wal", into: scratch) }
        var filesRead: Set<[UInt8]> = []
        var bodiesSeen: Set<Int> = []
        var objectRows: Set<Int64> = []
        var bodyRows: Set<Int64> = []
        var bodyBytes = 0
        do {
            let connection = try SQLiteConnection(path: scratch.path + "/Cache.db", create: false)
            connection.limitValueLength(to: Int32(maxObjectBytes + maxBodyBytes))
            try connection.withStepLimit(Int64(maxRows) * 1_000 + 1_000_000) {
                // iOS 5 and 6 wrote no `isDataOnFS` column: every body is in the database.
                let onFileSystemColumn = try checkSchema(connection) ? "isDataOnFS" : "0"
                let responses = try connection.prepare(
                    """
                    SELECT r.request_key, b.rowid, d.rowid
                    FROM cfurl_cache_response r
                    LEFT JOIN cfurl_cache_blob_data b ON b.entry_ID = r.entry_ID
                    LEFT JOIN cfurl_cache_receiver_data d ON d.entry_ID = r.entry_ID
                    ORDER BY r.entry_ID LIMIT \(maxRows)
                    """)
                let objects = try connection.prepare(
                    """
                    SELECT CASE WHEN length(request_object) <= \(maxObjectBytes) THEN request_object END,
                           CASE WHEN length(response_object) <= \(maxObjectBytes) THEN response_object END
                    FROM cfurl_cache_blob_data WHERE rowid = ?
                    """)
                let receiver = try connection.prepare(
                    """
                    SELECT \(onFileSystemColumn), substr(receiver_data, 1, \(maxBodyBytes))
                    FROM cfurl_cache_receiver_data WHERE rowid = ?
                    """)
                // Steps `statement` at the row `column` names, once per row: hostile stores join one to many responses.
                func readOnce(_ statement: SQLiteStatement, column: Int32, seen: inout Set<Int64>) throws -> Bool {
                    guard responses.bytes(column) != nil, seen.insert(responses.int64(column)).inserted else {
                        return false
                    }
                    try statement.bind([.integer(responses.int64(column))])
                    return try statement.step()
                }
                while try responses.step() {
                    let objectsRead = try readOnce(objects, column: 1, seen: &objectRows)
                    let (request, response) = objectsRead ? (objects.bytes(0), objects.bytes(1)) : (nil, nil)
                    guard meter.charge(objects: 1, bytes: (request?.count ?? 0) + (response?.count ?? 0)) else { break }
                    let bodyRead = try readOnce(receiver, column: 2, seen: &bodyRows)
                    let onFileSystem = bodyRead && receiver.int(0) != 0
                    let data = bodyRead ? receiver.bytes(1) ?? [] : []
                    guard meter.charge(bytes: data.count) else { break }
                    var body: [UInt8] = []
                    if onFileSystem {
                        if let bodies, filesRead.insert(data).inserted {
                            body = cachedFile(data, in: bodies)
                        }
                    } else if !data.isEmpty, bodiesSeen.insert(data.hashValue).inserted {
                        body = data
                    }
                    bodyBytes += body.count
                    if bodyBytes > maxBodyBytesPerFile {
                        meter.stop("more than \(maxBodyBytesPerFile >> 20) MiB of cached bodies in one Cache.db")
                    }
                    guard meter.charge(bytes: body.count) else { break }
                    each(
                        CachedResponse(
                            requestURL: responses.text(0) ?? "", requestHeaders: headers(request, meter: meter),
                            responseHeaders: headers(response, meter: meter), body: body,
                            bodyLocation: onFileSystem
                                ? "fsCachedData/" + String(decoding: data, as: UTF8.self) : "Cache.db"))
                }
            }
        } catch let error as StoreReadError {
            throw error
        } catch {
            throw StoreReadError("Cache.db: \(error)")
        }
    }

    /// Refuses views and triggers, which URLCache never writes; true when the receiver table has `isDataOnFS`.
    private static func checkSchema(_ connection: SQLiteConnection) throws -> Bool {
        let objects = try connection.rows(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')"
        ) { ($0.text(0) ?? "", $0.text(1) ?? "") }
        if let trigger = objects.first(where: { $0.0 == "trigger" }) {
            throw StoreReadError("Cache.db holds a trigger (\(trigger.1)); URLCache writes none")
        }
        for table in ["cfurl_cache_response", "cfurl_cache_blob_data", "cfurl_cache_receiver_data"] {
            guard objects.contains(where: { $0 == ("table", table) }) else {
                throw StoreReadError("Cache.db has no table \(table): not URLCache's database")
            }
        }
        return try connection.rows("SELECT name FROM pragma_table_info('cfurl_cache_receiver_data')") {
            $0.text(0) ?? ""
        }.contains("isDataOnFS")
    }

    /// Every `[String: String]` dictionary in a request or response object plist, merged.
    static func headers(_ bytes: [UInt8]?, meter: ContentMeter? = nil) -> [String: String] {
        guard let bytes, let value = try? PropertyListReader.parse(bytes, meter: meter) else { return [:] }
        var headers: [String: String] = [:]
        var pending = [value]
        var visited = 0
        while let next = pending.popLast(), visited < 10_000 {
            visited += 1
            switch next {
            case .dictionary(let entries):
                let strings = entries.compactMapValues(\.stringValue)
                if !strings.isEmpty && strings.count == entries.count { headers.merge(strings) { first, _ in first } }
                pending += entries.values
            case .array(let values): pending += values
            default: break
            }
        }
        return headers
    }

    /// The first bytes of `fsCachedData/<name>`: a plain name only, a regular file only, never through a link.
    private static func cachedFile(_ name: [UInt8], in folder: OpenFolder) -> [UInt8] {
        guard !name.isEmpty, !name.contains(UInt8(ascii: "/")), !name.contains(0), name != Array(".".utf8),
            name != Array("..".utf8)
        else { return [] }
        let subfolder = openat(folder.descriptor, "fsCachedData", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard subfolder >= 0 else { return [] }
        let held = OpenFolder(subfolder)
        var options = RegularFile.Options.insideContainer(maxBytes: nil)
        let file = (name + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                try? RegularFile.open($0.baseAddress!, in: held.descriptor, options: &options)
            }
        }
        return (try? file?.read(at: 0, count: maxBodyBytes)) ?? []
    }

    private static func copy(_ file: RegularFile, as name: String, into scratch: ScratchFolder) throws(StoreReadError) {
        guard file.size <= maxCopiedBytes else {
            throw StoreReadError("\(name): \(file.size) bytes, over the \(maxCopiedBytes >> 20) MiB copied to read it")
        }
        let bytes: [UInt8]
        do {
            bytes = try file.readAll()
        } catch {
            throw StoreReadError("\(name): \(error)")
        }
        guard scratch.store(name, bytes) != nil else {
            throw StoreReadError("cannot copy \(name) into a temporary folder")
        }
    }
}
