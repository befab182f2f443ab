import Foundation
import StocktakeFiles
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeContent
@testable import StocktakePropertyLists
@testable import StocktakeScan

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the content pass reaches: every candidate of a large container, and nothing but the container's own
/// files, whatever is swapped in between the walk and the pass.
@Suite struct ContentReachTests {
    static let secret = #"{"refresh_token": "Pq8sT3vW6yZ1bC4eF7hJ0kM2"}"#

    static func pass(_ tree: TemporaryTree) throws -> ContentInspector.Outcome {
        let inventory = try InventoryScanner.scan(root: tree.root)
        return ContentInspector(root: tree.root, inventory: inventory).run()
    }

    /// More files than the old audit-wide budget allowed (2,000 files, 8 MiB): each is read, and a secret in the
    /// last file in path order is found.
    @Test func everyCandidateOfALargeContainerIsRead() throws {
        let tree = try TemporaryTree("reach-large")
        for index in 0..<2_500 {
            try tree.write(
                "Library/Application Support/logs/\(1000 + index).log",
                string: String(repeating: "ok line\n", count: 600))
        }
        try tree.write("tmp/zz-last.json", string: Self.secret)
        let inventory = try InventoryScanner.scan(root: tree.root)
        let outcome = ContentInspector(root: tree.root, inventory: inventory).run()
        #expect(outcome.coverage.isComplete)
        #expect(outcome.coverage.inspected[.textFile]?.files == 2_501)
        #expect(outcome.items.map { PathText.display(inventory.path($0.entry)) } == ["tmp/zz-last.json"])
    }

    /// The walk reads each text file while its folder is open, and the pass reads again only what may hold a secret:
    /// the same items and coverage as a pass that reads every file itself, and a clean file is not read twice.
    @Test func textFilesTheWalkReadAreNotReadAgain() throws {
        let tree = try TemporaryTree("reach-walk")
        try tree.write("Documents/clean.json", string: #"{"note": "nothing here"}"#)
        try tree.write("Library/Application Support/app.log", string: String(repeating: "ok line\n", count: 20_000))
        try tree.write("tmp/upload.json", string: Self.secret)
        // URLCache's bodies are read through its Cache.db, and empty files hold nothing: the walk reads neither.
        try tree.write("Library/Caches/com.example.app/fsCachedData/0A1B", string: #"{"note": "cached"}"#)
        try tree.write("Documents/empty.txt", string: "")
        let scan = WalkTextScan()
        let inventory = try InventoryScanner.scan(root: tree.root, options: ScanOptions().with(textScan: scan))
        let clean = (0..<Int32(inventory.entries.count)).filter(scan.isClean).map {
            PathText.display(inventory.path($0))
        }
        #expect(clean.sorted() == ["Documents/clean.json", "Library/Application Support/app.log"])
        let alone = ContentInspector(root: tree.root, inventory: inventory).run()
        let walked = ContentInspector(root: tree.root, inventory: inventory, walkScan: scan).run()
        #expect(walked.items.map { PathText.display(inventory.path($0.entry)) } == ["tmp/upload.json"])
        #expect(walked.coverage == alone.coverage && walked.coverage.inspected[.textFile]?.files == 3)
        // Written after the walk read it: only a pass that reads the file again would see this.
        try tree.write("Documents/clean.json", string: Self.secret)
        let again = ContentInspector(root: tree.root, inventory: inventory, walkScan: scan).run()
        #expect(again.items.count == 1)
    }

    /// A folder swapped for a link to a folder outside the container after the walk: the pass refuses the link and
    /// reads nothing outside (before, it read the outside file and reported its secret as the container's).
    @Test func aFolderSwappedForALinkIsNotFollowed() throws {
        let tree = try TemporaryTree("reach-link")
        try tree.write("Documents/notes/a.json", string: #"{"note": "nothing here"}"#)
        let outside = try TemporaryTree("reach-outside")
        try outside.write("notes/a.json", string: Self.secret)
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(rename(tree.path("Documents/notes"), tree.path("Documents/moved")) == 0)
        try tree.symlink("Documents/notes", to: outside.path("notes"))
        let outcome = ContentInspector(root: tree.root, inventory: inventory).run()
        #expect(outcome.items.isEmpty)
        #expect(outcome.coverage.skipped[.unreadable]?.files == 1)
        #expect(outcome.issues.map(\.detail) == ["not read: " + FileRefusal.symbolicLink.description])
    }

    /// A store swapped for a FIFO after the walk: refused without blocking (SQLite would wait for a writer).
    @Test(.timeLimit(.minutes(1))) func aStoreSwappedForAFIFOIsRefused() throws {
        let tree = try TemporaryTree("reach-fifo")
        try tree.mkdir("Library/Application Support")
        try ContentLimitTests.python(
            "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('CREATE TABLE t(password TEXT)'); db.commit()",
            [tree.path("Library/Application Support/Store.sqlite")])
        let inventory = try InventoryScanner.scan(root: tree.root)
        #expect(unlink(tree.path("Library/Application Support/Store.sqlite")) == 0)
        try tree.mkfifo("Library/Application Support/Store.sqlite")
        let outcome = ContentInspector(root: tree.root, inventory: inventory).run()
        #expect(outcome.coverage.skipped[.unreadable]?.files == 1)
        #expect(outcome.issues.map(\.detail) == ["not read: " + FileRefusal.fifo.description])
    }

    /// A file the walk could not open (mode 000) has no known kind, so it may be any store: it is not covered.
    @Test(.enabled(if: FileModes.enforceable, FileModes.hint)) func aFileTheWalkCouldNotOpenIsNotCovered() throws {
        let tree = try TemporaryTree("reach-000")
        try tree.write("Documents/blob", string: Self.secret)
        #expect(chmod(tree.path("Documents/blob"), 0) == 0)
        defer { chmod(tree.path("Documents/blob"), 0o644) }
        let root = tree.root
        let inventory = try FileModes.binding { try? InventoryScanner.scan(root: root) }
        let outcome = ContentInspector(root: root, inventory: try #require(inventory)).run()
        #expect(!outcome.coverage.isComplete)
        #expect(outcome.coverage.skipped[.unreadable]?.files == 1)
        #expect(outcome.issues.map { PathText.display($0.path) } == ["Documents/blob"])
    }

    /// URLCache's tables as a hostile store may write them: 10,000 responses joined (by one `entry_ID`) to one
    /// 256 KiB body and one 200 KB request object. Each is read once, so the file is read whole within its limits
    /// (before, every response read both again: 2 GB of decoding, which the per-file limit cut off after 160).
    @Test func responsesJoinedToOneBodyReadItOnce() throws {
        let tree = try TemporaryTree("reach-urlcache")
        try tree.mkdir("Library/Caches/com.example.app")
        let script = #"""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE cfurl_cache_response(entry_ID INTEGER, version INTEGER, hash_value INTEGER, storage_policy INTEGER, request_key TEXT, time_stamp TIMESTAMP, partition TEXT)")
            db.execute("CREATE TABLE cfurl_cache_blob_data(entry_ID INTEGER PRIMARY KEY, response_object BLOB, request_object BLOB, proto_props BLOB, user_info BLOB)")
            db.execute("CREATE TABLE cfurl_cache_receiver_data(entry_ID INTEGER PRIMARY KEY, isDataOnFS INTEGER, receiver_data BLOB)")
            for entry in range(10000):
                db.execute("INSERT INTO cfurl_cache_response VALUES (1, 1, 0, 0, ?, '2024-01-01', NULL)", ("https://api.example.com/%d" % entry,))
            db.execute("INSERT INTO cfurl_cache_blob_data VALUES (1, NULL, ?, NULL, NULL)", (b"x" * 200000,))
            body = b'{"refresh_token": "Pq8sT3vW6yZ1bC4eF7hJ0kM2"}' + b" " * (256 * 1024 - 46)
            db.execute("INSERT INTO cfurl_cache_receiver_data VALUES (1, 0, ?)", (body,))
            db.commit()
            """#
        let database = tree.path("Library/Caches/com.example.app/Cache.db")
        try ContentLimitTests.python(script, [database])
        let meter = ContentMeter()
        meter.beginFile()
        var responses = 0
        var bodies = 0
        try URLCacheDatabase.read(database: database, meter: meter) { response in
            responses += 1
            if !response.body.isEmpty { bodies += 1 }
        }
        #expect(meter.stopped == nil)
        #expect(responses == 10_000)
        #expect(bodies == 1)
        #expect(meter.passBytes < 1 << 20)
        let outcome = try Self.pass(tree)
        #expect(outcome.coverage.isComplete)
        #expect(outcome.items.map(\.kind) == [.token])
    }

    /// The URL cache of iOS 5 and 6 has no `isDataOnFS` column: every body is in the database, and is read.
    @Test func theIOS5URLCacheSchemaIsRead() throws {
        let tree = try TemporaryTree("reach-ios5")
        try tree.mkdir("Library/Caches/com.example.app")
        let script = #"""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE cfurl_cache_response(entry_ID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, version INTEGER, hash_value INTEGER, storage_policy INTEGER, request_key TEXT UNIQUE, time_stamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)")
            db.execute("CREATE TABLE cfurl_cache_blob_data(entry_ID INTEGER PRIMARY KEY, response_object BLOB, request_object BLOB, proto_props BLOB, user_info BLOB)")
            db.execute("CREATE TABLE cfurl_cache_receiver_data(entry_ID INTEGER PRIMARY KEY, receiver_data BLOB)")
            db.execute("INSERT INTO cfurl_cache_response VALUES (1, 0, 0, 0, 'https://api.example.com/me', '2012-01-01')")
            db.execute("INSERT INTO cfurl_cache_blob_data VALUES (1, NULL, NULL, NULL, NULL)")
            db.execute("INSERT INTO cfurl_cache_receiver_data VALUES (1, ?)", (b'{"refresh_token": "Pq8sT3vW6yZ1bC4eF7hJ0kM2"}',))
            db.commit()
            """#
        try ContentLimitTests.python(script, [tree.path("Library/Caches/com.example.app/Cache.db")])
        let outcome = try Self.pass(tree)
        #expect(outcome.coverage.isComplete)
        #expect(outcome.items.map(\.kind) == [.token])
    }

    /// A Realm file larger than the old 16 MiB limit is read in windows, and a property name cut by a window's
    /// end is found whole (by the next window, which overlaps it), not as its tail.
    @Test func aLargeRealmFileIsReadInWindows() throws {
        var bytes = [UInt8](repeating: 0, count: 20 << 20)
        bytes.replaceSubrange(16..<20, with: Array("T-DB".utf8))
        let name = Array("userPassword".utf8)
        let at = ContentInspector.realmWindow - 4
        bytes.replaceSubrange(at..<(at + name.count), with: name)
        let tree = try TemporaryTree("reach-realm")
        try tree.write("Documents/default.realm", bytes: bytes)
        let outcome = try Self.pass(tree)
        #expect(outcome.coverage.isComplete)
        #expect(outcome.items.map(\.place) == ["property userPassword"])
    }

    /// Stores Apple's frameworks make in the container are passed over on purpose, and counted so: not a gap, and
    /// not unread.
    @Test func frameworkStoresArePassedOverAndCounted() throws {
        let tree = try TemporaryTree("reach-system")
        try tree.write("Library/HTTPStorages/com.example.app/HSTS.plist", bytes: Array("bplist00".utf8) + [0x08])
        try tree.mkdir("Library/WebKit/WebsiteData/LocalStorage")
        try ContentLimitTests.python(
            "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('CREATE TABLE Origins(origin TEXT)'); db.commit()",
            [tree.path("Library/WebKit/WebsiteData/LocalStorage/StorageTracker.db")])
        let outcome = try Self.pass(tree)
        #expect(outcome.coverage.passedOver.files == 2)
        #expect(outcome.coverage.isComplete)
        #expect(outcome.issues.isEmpty)
    }
}
