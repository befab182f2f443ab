import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeContent
@testable import StocktakePropertyLists
@testable import StocktakeScan

/// Small hostile files must not stop an audit, and nothing is left unread silently: each class of input that
/// multiplies work (shared references, repeated offsets, shared bodies, wide schemas, repeated load commands,
/// repeated findings) is generated at scale here, and the pass must end with its work counted within the limits
/// and the file listed as not read, with why. No timing is asserted: the counts are what bound the time.
@Suite struct ContentLimitTests {
    // MARK: - Generators

    /// A bplist00 of `objects` (each already encoded), references and offsets of `refSize` bytes (4: any file size).
    static func bplist(_ objects: [[UInt8]], top: Int = 0, refSize: Int = 4) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        for offset in offsets { bytes += bigEndian(UInt64(offset), size: 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, UInt8(refSize)]
        bytes +=
            bigEndian(UInt64(objects.count), size: 8) + bigEndian(UInt64(top), size: 8)
            + bigEndian(UInt64(tableOffset), size: 8)
        return bytes
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }

    /// A count after a marker whose low nibble is 0xF: an integer object of 4 bytes.
    static func count(_ marker: UInt8, _ count: Int) -> [UInt8] {
        [marker | 0x0F, 0x12] + bigEndian(UInt64(count), size: 4)
    }

    static func ascii(_ text: String) -> [UInt8] { count(0x50, text.utf8.count) + Array(text.utf8) }
    static func data(_ bytes: [UInt8]) -> [UInt8] { count(0x40, bytes.count) + bytes }
    static func array(_ references: [Int], refSize: Int = 4) -> [UInt8] {
        count(0xA0, references.count) + references.flatMap { bigEndian(UInt64($0), size: refSize) }
    }
    static func dictionary(keys: [Int], values: [Int], refSize: Int = 4) -> [UInt8] {
        count(0xD0, keys.count) + (keys + values).flatMap { bigEndian(UInt64($0), size: refSize) }
    }

    /// The content pass over a folder, and its meter's limits.
    static func pass(_ tree: TemporaryTree) throws -> ContentInspector.Outcome {
        let inventory = try InventoryScanner.scan(root: tree.path(""))
        return ContentInspector(root: tree.path(""), inventory: inventory).run()
    }

    static func python(_ script: String, _ arguments: [String]) throws {
        let result = try StocktakeProcess.runCommand(["python3", "-c", script] + arguments)
        try #require(result.status == 0, "\(result.stderr)")
    }

    // MARK: - 1. Shared references and nested plists: bounded per file, as the walk goes

    /// A 1 MB plist whose one data value holds a nested plist of 250,000 references to one string, itself
    /// referenced eight times: decoding and walking it would visit millions of values. The walk counts each
    /// visit and each nested decoding, stops at the per-file limit, and the file is "not read: limit".
    @Test func sharedReferencesAndNestedPlistsStopAtTheFileLimit() throws {
        let inner = Self.bplist([Self.array(Array(repeating: 1, count: 250_000)), Self.ascii("Xk9fQ2LmZp7RtV4wYs1NqW")])
        let outer = Self.bplist([
            Self.dictionary(keys: [1], values: [2]), Self.ascii("accessToken"),
            Self.array(Array(repeating: 3, count: 8)), Self.data(inner),
        ])
        #expect(outer.count > 1_000_000)
        let tree = try TemporaryTree("limit-nested")
        try tree.write("Library/Preferences/com.example.app.plist", bytes: outer)
        let outcome = try Self.pass(tree)
        #expect(outcome.coverage.skipped[.workLimit]?.files == 1)
        #expect(outcome.filesStopped == 1)
        // Counted as it went: the walk stopped within one visit or judgement of the limit.
        #expect(outcome.decodedObjects <= ContentMeter.Limits().objectsPerFile + ContentMeter.judgementCost)
        #expect(outcome.issues.map { PathText.display($0.path) } == ["Library/Preferences/com.example.app.plist"])
        #expect(outcome.issues.first?.reason == .contentNotRead)
        #expect(outcome.issues.first?.detail.hasPrefix("not read: ") == true)
    }

    // MARK: - 2. Many small plists that each decode to a million values: the pass's budget counts decoded work

    @Test func manySmallExpandingPlistsSpendThePassBudgetNotMinutes() throws {
        // 4 KB each: 1,000 references to an array of 1,000 references to one string: a million values.
        let file = Self.bplist(
            [
                Self.array(Array(repeating: 1, count: 1_000), refSize: 2),
                Self.array(Array(repeating: 2, count: 1_000), refSize: 2), Self.ascii("x"),
            ], refSize: 2)
        #expect(file.count < 4_200)
        let tree = try TemporaryTree("limit-many")
        let count = 2_000
        for index in 0..<count { try tree.write("Library/Application Support/p/\(index).plist", bytes: file) }
        let outcome = try Self.pass(tree)
        // Every file is accounted for: read whole, or listed as not read with why.
        let skipped = outcome.coverage.skipped.values.reduce(0) { $0 + $1.files }
        #expect(outcome.coverage.inspectedTotal.files + skipped == count)
        #expect(outcome.coverage.skipped[.workLimit]?.files == count)
        #expect(outcome.coverage.isComplete == false)
        // Once the pass's limit ran out, the remaining files were not even opened: its work is the pass's limit,
        // not 2,000 files' worth (each file stops at its own decoding limit, about 130,000 values here).
        let notOpened = outcome.issues.filter { $0.detail.contains("ran out before it") }.count
        let limits = ContentMeter.Limits()
        #expect(notOpened > count - 100)
        #expect(outcome.decodedObjects <= limits.objectsPerPass + limits.objectsPerFile)
    }

    // MARK: - 3. A cookie jar whose offsets all point at one cookie

    static func cookieFile(offsets: [UInt32], cookie: [UInt8]) -> [UInt8] {
        var page: [UInt8] = [0, 0, 1, 0] + BinaryCookiesTests.le(UInt32(offsets.count))
        page += offsets.flatMap { BinaryCookiesTests.le($0) }
        page += [0, 0, 0, 0]
        page += cookie
        return Array("cook".utf8) + BinaryCookiesTests.be(1) + BinaryCookiesTests.be(UInt32(page.count)) + page
    }

    @Test func repeatedCookieOffsetsDoNotMultiplyTheWork() throws {
        let value = String(repeating: "v", count: 3 << 20)
        let cookie = BinaryCookiesTests.cookie(
            domain: ".example.com", name: "sessionid", value: value, flags: 0, expires: 0)
        let headerBytes = 8 + 10_000 * 4 + 4
        let file = Self.cookieFile(offsets: Array(repeating: UInt32(headerBytes), count: 10_000), cookie: cookie)
        let meter = ContentMeter()
        meter.beginFile()
        let cookies = try BinaryCookies.parse(file, meter: meter)
        #expect(cookies.count == 1)
        #expect(meter.passBytes < 4 << 20)

        // Distinct offsets into one large cookie: each a cookie of its own, each decoding megabytes; the meter stops it.
        var overlapping: [UInt8] = []
        let base = 8 + 2_000 * 4 + 4
        var offsets: [UInt32] = []
        for index in 0..<2_000 { offsets.append(UInt32(base + index * 56)) }
        // 2,000 cookie headers in a row, each declaring the whole rest of the page, strings at the far end.
        let tail = 2_000 * 56
        let strings =
            Array(".example.com\0sessionid\0/\0".utf8) + Array(repeating: UInt8(ascii: "v"), count: 1 << 20) + [0]
        for index in 0..<2_000 {
            let size = UInt32(tail - index * 56 + strings.count)
            let at = UInt32(tail - index * 56)
            var header =
                BinaryCookiesTests.le(size) + BinaryCookiesTests.le(0) + BinaryCookiesTests.le(0)
                + BinaryCookiesTests.le(0)
            header +=
                BinaryCookiesTests.le(at) + BinaryCookiesTests.le(at + 13) + BinaryCookiesTests.le(at + 23)
                + BinaryCookiesTests.le(at + 25)
            header += [UInt8](repeating: 0, count: 56 - header.count)
            overlapping += header
        }
        overlapping += strings
        let hostile = Self.cookieFile(offsets: offsets, cookie: overlapping)
        let second = ContentMeter()
        second.beginFile()
        #expect(throws: StoreReadError.self) { try BinaryCookies.parse(hostile, meter: second) }
        #expect(second.stopped != nil)
        #expect(second.passBytes <= Int64(second.limits.bytesPerFile + (1 << 20) + 64))
    }

    // MARK: - 4. A URL cache whose responses share one body

    @Test func sharedCachedBodiesAreReadOnce() throws {
        let tree = try TemporaryTree("limit-urlcache")
        try tree.mkdir("Library/Caches/com.example.app")
        let script = #"""
            import os, plistlib, sqlite3, sys
            folder = sys.argv[1]
            os.makedirs(os.path.join(folder, "fsCachedData"), exist_ok=True)
            open(os.path.join(folder, "fsCachedData", "BODY"), "w").write('{"refresh_token": "Pq8sT3vW6yZ1bC4eF7hJ0kM2"}' + " " * (256 * 1024))
            db = sqlite3.connect(os.path.join(folder, "Cache.db"))
            db.execute("CREATE TABLE cfurl_cache_response(entry_ID INTEGER PRIMARY KEY, version INTEGER, hash_value INTEGER, storage_policy INTEGER, request_key TEXT UNIQUE, time_stamp TIMESTAMP, partition TEXT)")
            db.execute("CREATE TABLE cfurl_cache_blob_data(entry_ID INTEGER PRIMARY KEY, response_object BLOB, request_object BLOB, proto_props BLOB, user_info BLOB)")
            db.execute("CREATE TABLE cfurl_cache_receiver_data(entry_ID INTEGER PRIMARY KEY, isDataOnFS INTEGER, receiver_data BLOB)")
            for entry in range(1, 10001):
                db.execute("INSERT INTO cfurl_cache_response VALUES (?, 1, 0, 0, ?, '2024-01-01', NULL)", (entry, "https://api.example.com/%d" % entry))
                db.execute("INSERT INTO cfurl_cache_blob_data VALUES (?, NULL, NULL, NULL, NULL)", (entry,))
                db.execute("INSERT INTO cfurl_cache_receiver_data VALUES (?, 1, ?)", (entry, b"BODY"))
            db.commit()
            """#
        try Self.python(script, [tree.path("Library/Caches/com.example.app")])
        let meter = ContentMeter()
        meter.beginFile()
        var bodies = 0
        var responses = 0
        try URLCacheDatabase.read(database: tree.path("Library/Caches/com.example.app/Cache.db"), meter: meter) {
            response in
            responses += 1
            if !response.body.isEmpty { bodies += 1 }
        }
        #expect(responses == 10_000)
        #expect(bodies == 1, "one body, read once")
        #expect(meter.passBytes < 1 << 20)
        let outcome = try Self.pass(tree)
        #expect(outcome.items.map(\.kind) == [.token])
        #expect(outcome.coverage.inspected[.urlCache]?.files == 1)
        #expect(outcome.coverage.isComplete)
    }

    // MARK: - 5. Wide SQLite schemas: tables, columns and queries bounded per store and per pass

    @Test func wideSchemasStopAtTheColumnLimit() throws {
        let tree = try TemporaryTree("limit-sqlite")
        let script = """
            import sqlite3, sys
            for store in range(6):
                db = sqlite3.connect("%s/Library/Application Support/Store%d.sqlite" % (sys.argv[1], store))
                columns = ", ".join("password%d TEXT" % column for column in range(1000))
                for table in range(300): db.execute("CREATE TABLE t%d (%s)" % (table, columns))
                db.commit()
            """
        try tree.mkdir("Library/Application Support")
        try Self.python(script, [tree.path("")])
        let outcome = try Self.pass(tree)
        #expect(outcome.coverage.skipped[.workLimit]?.files == 6)
        #expect(outcome.issues.count == 6)
        #expect(outcome.issues.allSatisfy { $0.detail.contains("limit") || $0.detail.contains("more than") })
    }

    // MARK: - 6. Mach-O: load commands walked once, one entitlements section read

    @Test func machOWithThousandsOfEntitlementsSectionsReadsOne() throws {
        // 2,000 LC_SEGMENT_64 commands named __TEXT, each with one __entitlements section pointing at the same 1 MB.
        let count = 2_000
        let commandSize = 72 + 80
        var commands: [UInt8] = []
        let dataOffset = 32 + count * commandSize
        for _ in 0..<count {
            var command = BinaryCookiesTests.le(0x19) + BinaryCookiesTests.le(UInt32(commandSize))
            command += Array("__TEXT".utf8) + [UInt8](repeating: 0, count: 10)
            command +=
                [UInt8](repeating: 0, count: 64 - command.count) + BinaryCookiesTests.le(1) + BinaryCookiesTests.le(0)
            var section =
                Array("__entitlements".utf8) + [0, 0] + Array("__TEXT".utf8) + [UInt8](repeating: 0, count: 10)
            section += [UInt8](repeating: 0, count: 8)  // addr
            section += withUnsafeBytes(of: UInt64(1 << 20).littleEndian, Array.init)  // size
            section += BinaryCookiesTests.le(UInt32(dataOffset))
            section += [UInt8](repeating: 0, count: 80 - section.count)
            commands += command + section
        }
        var header =
            BinaryCookiesTests.le(0xFEED_FACF) + BinaryCookiesTests.le(0x0100_0007) + BinaryCookiesTests.le(3)
            + BinaryCookiesTests.le(2)
        header +=
            BinaryCookiesTests.le(UInt32(count)) + BinaryCookiesTests.le(UInt32(commands.count))
            + BinaryCookiesTests.le(0) + BinaryCookiesTests.le(0)
        let plist = Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key><true/></dict></plist>".utf8)
        let file = header + commands + plist + [UInt8](repeating: 0x20, count: 1 << 20)
        #expect(file.count > 1_300_000)
        let tree = try TemporaryTree("limit-macho")
        try tree.write("App", bytes: file)
        #expect(try MachOEntitlements.read(executable: tree.path("App")) == .dictionary(["a": .bool(true)]))
        // Past the load commands' bound, nothing more is walked: a count of a billion commands reads what the bytes hold.
        var lying = file
        lying.replaceSubrange(16..<20, with: BinaryCookiesTests.le(UInt32.max))
        try tree.write("Lying", bytes: lying)
        #expect(try MachOEntitlements.read(executable: tree.path("Lying")) == .dictionary(["a": .bool(true)]))
    }

    // MARK: - 7. Repeats are one item, counted; items per file are bounded

    @Test func repeatedSecretsAreOneCountedItem() {
        // One 64 KiB log line repeating one token 2,260 times: one item, counted.
        let repeated = Array(repeating: PropertyListSecrets.Hit(place: "line 1", kind: .jwt, length: 120), count: 2_260)
        let items = ContentInspector.grouped(repeated, entry: 1, store: .textFile)
        #expect(items.count == 1)
        #expect(items.first?.count == 2_260)
        // Thousands of distinct places: at most `maxItemsPerFile` items, the rest counted under "other places".
        let many = (0..<5_000).map {
            PropertyListSecrets.Hit(place: "key users.[\($0)].password", kind: .password, length: 9)
        }
        let capped = ContentInspector.grouped(many, entry: 1, store: .propertyList)
        #expect(capped.count == ContentInspector.maxItemsPerFile + 1)
        #expect(capped.last?.place == "other places")
        #expect(capped.reduce(0) { $0 + $1.count } == 5_000)
    }

    // MARK: - 8. Never silent: what does not parse, what is encrypted, what is too large

    @Test func unreadFilesAreIssuesWithTheirReason() throws {
        let tree = try TemporaryTree("limit-silent")
        try tree.write(
            "Library/Preferences/broken.plist", bytes: Array("bplist00".utf8) + [UInt8](repeating: 0xFF, count: 64))
        try tree.write("Library/Cookies/Cookies.binarycookies", bytes: Array("cook".utf8) + [0, 0, 0, 9])
        try tree.write("Documents/model.realm", bytes: [UInt8](repeating: 0x5A, count: 64))
        try tree.write(
            "Library/Preferences/big.plist", bytes: Array("bplist00".utf8) + [UInt8](repeating: 0, count: 5 << 20))
        try tree.write(
            "Library/Preferences/fine.plist",
            bytes: Array("<plist><dict><key>a</key><string>b</string></dict></plist>".utf8))
        let outcome = try Self.pass(tree)
        let reasons = Dictionary(uniqueKeysWithValues: outcome.issues.map { (PathText.display($0.path), $0.detail) })
        #expect(reasons["Library/Preferences/broken.plist"]?.hasPrefix("not read: not a property list") == true)
        #expect(reasons["Library/Cookies/Cookies.binarycookies"]?.hasPrefix("not read: not a cookie file") == true)
        #expect(reasons["Documents/model.realm"]?.contains("encrypted") == true)
        #expect(reasons["Library/Preferences/big.plist"]?.contains("over the") == true)
        #expect(reasons["Library/Preferences/fine.plist"] == nil)
        #expect(outcome.coverage.skipped[.unparseable]?.files == 2)
        #expect(outcome.coverage.skipped[.encrypted]?.files == 1)
        #expect(outcome.coverage.skipped[.overSizeLimit]?.files == 1)
        #expect(outcome.coverage.inspected[.propertyList]?.files == 1)
        #expect(outcome.coverage.unreadSummary?.hasPrefix("4 files not read whole") == true)
    }

    // MARK: - 9. A value over the limit leaves the rest read; a password only in the -wal is found

    @Test func oversizedValueAndUncheckpointedWAL() throws {
        let tree = try TemporaryTree("limit-wal")
        try tree.mkdir("Library/WebKit/WebsiteData/LocalStorage")
        try tree.mkdir("Library/Application Support")
        let script = """
            import os, shutil, sqlite3, sys
            \(walOnlyStorePython)
            root = sys.argv[1]
            db = sqlite3.connect(root + "/Library/WebKit/WebsiteData/LocalStorage/https_example.com_0.localstorage")
            db.execute("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB NOT NULL ON CONFLICT FAIL)")
            db.execute("INSERT INTO ItemTable VALUES (?, ?)", ("big", b"x" * (2 << 20)))
            db.execute("INSERT INTO ItemTable VALUES (?, ?)", ("auth_token", "Wm8pLq2RtY6uVn3sXk7aBd5c".encode("utf-16-le")))
            db.commit(); db.close()
            path = root + "/Library/Application Support/Model.sqlite"
            wal_only_store(path)
            main_only = sqlite3.connect("file:%s?immutable=1" % path, uri=True)
            assert main_only.execute("SELECT count(*) FROM ZUSER").fetchone()[0] == 0, "the row must be in the -wal only"
            """
        try Self.python(script, [tree.path("")])
        let before = TreeSnapshot(tree.path(""))
        let outcome = try Self.pass(tree)
        #expect(TreeSnapshot(tree.path("")) == before, "nothing written beside the input")
        #expect(Set(outcome.items.map(\.place)) == ["local storage key auth_token", "column ZUSER.ZPASSWORD"])
        #expect(outcome.coverage.skipped[.valueTooLarge]?.files == 1)
        #expect(
            outcome.issues.map { PathText.display($0.path) } == [
                "Library/WebKit/WebsiteData/LocalStorage/https_example.com_0.localstorage"
            ])
        #expect(outcome.issues.first?.detail.hasPrefix("read in part: ") == true)
    }
}
