import Foundation
import StocktakeModel
import StocktakePropertyLists
import TestSupport
import Testing

@testable import StocktakeContent
@testable import StocktakeScan

/// URLCache's `Cache.db` as URLSession writes it (tables, binary plist request objects, bodies in rows and in
/// `fsCachedData/`), read without writing beside it, its `-wal` included.
@Suite struct URLCacheDatabaseTests {
    static let script = #"""
        import os, plistlib, sqlite3, sys
        folder, mode = sys.argv[1], sys.argv[2]
        os.makedirs(os.path.join(folder, "fsCachedData"), exist_ok=True)
        db = sqlite3.connect(os.path.join(folder, "Cache.db"), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("CREATE TABLE cfurl_cache_response(entry_ID INTEGER PRIMARY KEY, version INTEGER, hash_value INTEGER, storage_policy INTEGER, request_key TEXT UNIQUE, time_stamp TIMESTAMP, partition TEXT)")
        db.execute("CREATE TABLE cfurl_cache_blob_data(entry_ID INTEGER PRIMARY KEY, response_object BLOB, request_object BLOB, proto_props BLOB, user_info BLOB)")
        db.execute("CREATE TABLE cfurl_cache_receiver_data(entry_ID INTEGER PRIMARY KEY, isDataOnFS INTEGER, receiver_data BLOB)")
        if mode == "view":
            db.execute("CREATE VIEW v AS SELECT 1")
            db.execute("CREATE TRIGGER t AFTER INSERT ON cfurl_cache_response BEGIN SELECT 1; END")
        def request(url, headers):
            return plistlib.dumps({"Array": [url, 0, 60.0, headers], "Version": 9}, fmt=plistlib.FMT_BINARY)
        def response(headers):
            return plistlib.dumps({"Array": ["https://x", 200, headers], "Version": 1}, fmt=plistlib.FMT_BINARY)
        rows = [
            (1, "https://api.example.com/v1/feed", {"Authorization": "Bearer abcdefghijklmnopqrstuvwxyz012345", "Accept": "application/json"}, 0, b'{"items": []}'),
            (2, "https://api.example.com/v1/me?access_token=Xk9fQ2LmZp7RtV4wYs1NqW8e&lang=en", {"Accept": "*/*"}, 1, b"B5D1B6E8-3D9F-4B5E-9C6A-1F2E3D4C5B6A"),
            (3, "https://cdn.example.com/logo.png", {"Accept": "image/png"}, 0, b"\x89PNG\r\n"),
            (4, "https://images.example.com/linked.png", {"Accept": "image/png"}, 1, b"LINKED"),
        ]
        open(os.path.join(folder, "fsCachedData", "B5D1B6E8-3D9F-4B5E-9C6A-1F2E3D4C5B6A"), "w").write('{"user": "alice", "refresh_token": "Pq8sT3vW6yZ1bC4eF7hJ0kM2"}')
        os.symlink("/etc/passwd", os.path.join(folder, "fsCachedData", "LINKED"))  # a file on Linux and macOS alike
        db.execute("BEGIN")
        for entry, url, headers, on_fs, data in rows[:3]:
            db.execute("INSERT INTO cfurl_cache_response VALUES (?, 1, 0, 0, ?, '2024-01-01', NULL)", (entry, url))
            db.execute("INSERT INTO cfurl_cache_blob_data VALUES (?, ?, ?, NULL, NULL)", (entry, response({"Content-Type": "application/json"}), request(url, headers)))
            db.execute("INSERT INTO cfurl_cache_receiver_data VALUES (?, ?, ?)", (entry, on_fs, data))
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        # The last response only in the -wal, as a live app leaves it.
        entry, url, headers, on_fs, data = rows[3]
        db.execute("BEGIN")
        db.execute("INSERT INTO cfurl_cache_response VALUES (?, 1, 0, 0, ?, '2024-01-01', NULL)", (entry, url))
        db.execute("INSERT INTO cfurl_cache_blob_data VALUES (?, ?, ?, NULL, NULL)", (entry, response({}), request(url, headers)))
        db.execute("INSERT INTO cfurl_cache_receiver_data VALUES (?, ?, ?)", (entry, on_fs, data))
        db.execute("COMMIT")
        # Closing would checkpoint the -wal into the database: keep both as the running app leaves them.
        import shutil
        for name in ("Cache.db", "Cache.db-wal"): shutil.copyfile(os.path.join(folder, name), os.path.join(folder, name + ".keep"))
        db.close()
        for name in ("Cache.db", "Cache.db-wal"): os.replace(os.path.join(folder, name + ".keep"), os.path.join(folder, name))
        if os.path.exists(os.path.join(folder, "Cache.db-shm")): os.remove(os.path.join(folder, "Cache.db-shm"))
        main_only = sqlite3.connect("file:%s?immutable=1" % os.path.join(folder, "Cache.db"), uri=True)
        assert main_only.execute("SELECT count(*) FROM cfurl_cache_response").fetchone()[0] == 3, "the 4th row must be in the -wal only"
        """#

    static func cache(_ mode: String = "plain") throws -> TemporaryTree {
        let tree = try TemporaryTree("urlcache")
        try tree.mkdir("com.example.app")
        let result = try StocktakeProcess.runCommand(["python3", "-c", script, tree.path("com.example.app"), mode])
        try #require(result.status == 0, "\(result.stderr)")
        return tree
    }

    @Test func readsRowsBodiesAndTheWALWithoutWritingBesideIt() throws {
        let tree = try Self.cache()
        let before = TreeSnapshot(tree.path(""))
        let responses = try URLCacheDatabase.read(database: tree.path("com.example.app/Cache.db"))
        #expect(TreeSnapshot(tree.path("")) == before, "nothing written beside Cache.db")
        #expect(
            responses.map(\.requestURL).last == "https://images.example.com/linked.png", "the row only the -wal holds")
        #expect(responses.count == 4)
        #expect(responses[0].requestHeaders["Authorization"] == "Bearer abcdefghijklmnopqrstuvwxyz012345")
        #expect(responses[0].responseHeaders["Content-Type"] == "application/json")
        #expect(String(decoding: responses[1].body, as: UTF8.self).contains("refresh_token"))
        #expect(responses[1].bodyLocation == "fsCachedData/B5D1B6E8-3D9F-4B5E-9C6A-1F2E3D4C5B6A")
        #expect(responses[3].body.isEmpty, "a linked fsCachedData file is not followed")

        let hits = CacheSecrets.find(responses)
        #expect(
            hits.map(\.place) == [
                "request to api.example.com, header Authorization",
                "request to api.example.com, parameter access_token",
                "response from api.example.com (fsCachedData/B5D1B6E8-3D9F-4B5E-9C6A-1F2E3D4C5B6A), line 1",
            ])
        #expect(hits.map(\.kind) == [.authorizationHeader, .token, .token])
    }

    @Test func refusesViewsAndTriggersAndWhatIsNotACache() throws {
        let tree = try Self.cache("view")
        let error = #expect(throws: StoreReadError.self) {
            try URLCacheDatabase.read(database: tree.path("com.example.app/Cache.db"))
        }
        #expect(error?.message.contains("trigger") == true)
        try tree.write("other/Cache.db", bytes: Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 100))
        #expect(throws: StoreReadError.self) { try URLCacheDatabase.read(database: tree.path("other/Cache.db")) }
        #expect(throws: StoreReadError.self) { try URLCacheDatabase.read(database: tree.path("missing/Cache.db")) }
    }
}

extension URLCacheDatabase {
    /// Every response, in `entry_ID` order (the content pass streams with `read(database:meter:_:)`).
    static func read(database: String) throws(StoreReadError) -> [CachedResponse] {
        var responses: [CachedResponse] = []
        try read(database: database, meter: ContentMeter()) { responses.append($0) }
        return responses
    }
}
