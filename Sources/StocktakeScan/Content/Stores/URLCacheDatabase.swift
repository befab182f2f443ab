import Foundation
import StocktakeFiles
import StocktakeModel
import StocktakeSQLite

/// One cached response of URLCache's `Cache.db`.
public struct CachedResponse: Sendable, Equatable {
    public let requestURL: String
    /// Every string-to-string dictionary of the request object's plist (the request's headers).
    public let requestHeaders: [String: String]
    public let responseHeaders: [String: String]
    /// The body's first bytes: from `cfurl_cache_receiver_data`, or from `fsCachedData/<name>` when the
    /// row says the data is on the file system.
    public let body: [UInt8]
    /// `Cache.db` or `fsCachedData/<name>`: where the body came from, for messages.
    public let bodyLocation: String
}

/// Reads URLCache's `Cache.db` (`cfurl_cache_response`, `cfurl_cache_blob_data`, `cfurl_cache_receiver_data`)
/// without writing beside it. A WAL database opened in place would get a `-shm` (a write into the audited
/// tree), and the immutable mode ignores the `-wal` where the newest responses often are; so the database
/// and its `-wal` are copied (bounded) into a private temporary folder, read there, and the copy removed.
public enum URLCacheDatabase {
    static let maxCopiedBytes: Int64 = 64 << 20
    static let maxObjectBytes = 1 << 20

    /// Bodies read from `fsCachedData/` and `Cache.db` in all, for one database: 10,000 distinct bodies of 256 KiB
    /// would be 2.5 GB; past this the rest is left unread and the file listed as not read whole.
    static let maxBodyBytesPerFile = 16 << 20

    /// Every response, in `entry_ID` order (tests; the content pass streams with `read(database:meter:_:)`).
    public static func read(database: String, maxRows: Int = 10_000, maxBodyBytes: Int = 256 << 10)
        throws(StoreReadError) -> [CachedResponse]
    {
        var responses: [CachedResponse] = []
        try read(database: database, maxRows: maxRows, maxBodyBytes: maxBodyBytes, meter: ContentMeter()) {
            responses.append($0)
        }
        return responses
    }

    /// Streams the responses to `each`, one at a time: nothing but the current row is held. A body stored again
    /// under another response (the same `fsCachedData/` file, the same bytes in `Cache.db`) is read and handed on
    /// once (the later responses get an empty body), and every response and body byte counts against `meter`:
    /// past a limit (or `maxBodyBytesPerFile`) the read stops with the meter saying why.
    public static func read(
        database: String, maxRows: Int = 10_000, maxBodyBytes: Int = 256 << 10, meter: ContentMeter,
        _ each: (CachedResponse) -> Void
    ) throws(StoreReadError) {
        guard let scratch = ScratchFolder("stocktake-urlcache") else {
            throw StoreReadError("cannot make a temporary folder: \(SystemError.currentText)")
        }
        // The copies go with `scratch`: keep it until SQLite is done with them.
        defer { withExtendedLifetime(scratch) {} }
        try copy(database, as: "Cache.db", into: scratch, required: true)
        try copy(database + "-wal", as: "Cache.db-wal", into: scratch, required: false)
        let folder = (database as NSString).deletingLastPathComponent
        var filesRead: Set<[UInt8]> = []
        var bodiesSeen: Set<Int> = []
        var bodyBytes = 0
        do {
            let connection = try SQLiteConnection(path: scratch.path + "/Cache.db", create: false)
            connection.limitValueLength(to: Int32(maxObjectBytes + maxBodyBytes))
            try connection.withStepLimit(Int64(maxRows) * 1_000 + 1_000_000) {
                try checkSchema(connection)
                let statement = try connection.prepare(
                    """
                    SELECT r.request_key,
                           CASE WHEN length(b.request_object) <= \(maxObjectBytes) THEN b.request_object END,
                           CASE WHEN length(b.response_object) <= \(maxObjectBytes) THEN b.response_object END,
                           d.isDataOnFS, substr(d.receiver_data, 1, \(maxBodyBytes))
                    FROM cfurl_cache_response r
                    LEFT JOIN cfurl_cache_blob_data b ON b.entry_ID = r.entry_ID
                    LEFT JOIN cfurl_cache_receiver_data d ON d.entry_ID = r.entry_ID
                    ORDER BY r.entry_ID LIMIT \(maxRows)
                    """)
                while try statement.step() {
                    let onFileSystem = statement.int(3) != 0
                    let data = statement.bytes(4) ?? []
                    let request = statement.bytes(1)
                    let response = statement.bytes(2)
                    guard meter.charge(objects: 1, bytes: (request?.count ?? 0) + (response?.count ?? 0)) else { break }
                    var body: [UInt8] = []
                    if onFileSystem {
                        if filesRead.insert(data).inserted {
                            body = cachedFile(data, in: folder, maxBytes: maxBodyBytes)
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
                            requestURL: statement.text(0) ?? "", requestHeaders: headers(request, meter: meter),
                            responseHeaders: headers(response, meter: meter),
                            body: body,
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

    /// The three tables must be tables: a view or a trigger is not what URLCache writes.
    private static func checkSchema(_ connection: SQLiteConnection) throws {
        let objects = try connection.rows(
            "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')"
        ) {
            ($0.text(0) ?? "", $0.text(1) ?? "")
        }
        if let trigger = objects.first(where: { $0.0 == "trigger" }) {
            throw StoreReadError("Cache.db holds a trigger (\(trigger.1)); URLCache writes none")
        }
        for table in ["cfurl_cache_response", "cfurl_cache_blob_data", "cfurl_cache_receiver_data"] {
            guard objects.contains(where: { $0 == ("table", table) }) else {
                throw StoreReadError("Cache.db has no table \(table): not URLCache's database")
            }
        }
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
            case .array(let values):
                pending += values
            default:
                break
            }
        }
        return headers
    }

    /// The first bytes of `fsCachedData/<name>`: a plain name only, a regular file only, never through a link.
    private static func cachedFile(_ name: [UInt8], in folder: String, maxBytes: Int) -> [UInt8] {
        let text = String(decoding: name, as: UTF8.self)
        guard !text.isEmpty, !text.contains("/"), text != "..", text != "." else { return [] }
        var options = RegularFile.Options.insideContainer(maxBytes: nil)
        guard let file = try? RegularFile.open(folder + "/fsCachedData/" + text, options: &options) else { return [] }
        return (try? file.read(at: 0, count: maxBytes)) ?? []
    }

    private static func copy(_ source: String, as name: String, into scratch: ScratchFolder, required: Bool)
        throws(StoreReadError)
    {
        var options = RegularFile.Options.insideContainer(maxBytes: maxCopiedBytes)
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.open(source, options: &options).readAll()
        } catch {
            if !required, case .system(let code) = error, code == ENOENT { return }
            throw StoreReadError("\((source as NSString).lastPathComponent): \(error)")
        }
        guard scratch.store(name, bytes) != nil else {
            throw StoreReadError("cannot copy \((source as NSString).lastPathComponent) into a temporary folder")
        }
    }
}
