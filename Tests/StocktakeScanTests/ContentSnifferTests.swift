import StocktakeContent
import StocktakeModel
import StocktakeScan
import Testing

@Suite("ContentSniffer: names")
struct ContentSnifferNameTests {
    static let settledByName: [(String, ContentKind)] = [
        // SQLite family, by suffix and extension.
        ("Den.sqlite", .sqlite), ("store.sqlite3", .sqlite), ("Cache.db", .sqlite), ("a.sqlitedb", .sqlite),
        ("Model.storedata", .sqlite), ("google-app-measurement.sql", .sqlite),
        ("Den.sqlite-wal", .sqliteWAL), ("Cache.db-shm", .sqliteSHM), ("httpstorages.sqlite-journal", .sqliteJournal),
        ("CACHE.DB-WAL", .sqliteWAL), ("Den.sqlite-SHM", .sqliteSHM),
        // Realm.
        ("default.realm", .realm), ("default.realm.lock", .realmAuxiliary), ("default.realm.note", .realmAuxiliary),
        ("Default.REALM.Lock", .realmAuxiliary),
        // AppleDouble sidecars, whatever follows the prefix.
        ("._Den.sqlite", .appleDouble), ("._.", .appleDouble), ("._photo.jpg", .appleDouble),
        // Media and documents, case-insensitive.
        ("photo.jpg", .jpeg), ("photo.JPG", .jpeg), ("Photo.JpEg", .jpeg), ("a.png", .png), ("a.gif", .gif),
        ("a.webp", .webp), ("IMG_0001.HEIC", .heic), ("a.heif", .heic), ("snapshot@3x.ktx", .ktx),
        ("clip.mp4", .mp4), ("clip.m4v", .mp4), ("clip.mov", .mov), ("voice.m4a", .m4a), ("doc.pdf", .pdf),
        ("bundle.zip", .zip), ("logs.tar.gz", .gzip), ("config.json", .json), ("notes.txt", .text),
        ("app-latest.log", .text), ("README.md", .text), ("export.csv", .text),
        ("Cookies.binarycookies", .binaryCookies), ("net.devsci.den.BinaryCookies", .binaryCookies),
        ("été.png", .png),
    ]

    @Test("names that settle the kind", arguments: settledByName)
    func settledKinds(_ row: (String, ContentKind)) {
        #expect(sniffName(row.0) == row.1, "\(row.0)")
    }

    static let needContent: [String] = [
        "net.devsci.den.plist", "data.data", "state.archive", "README", "fsCachedData-UUID",
        "0C5B3E2A-8F3B-4C9E-9B70-5D1E4A7C2F10", "archive.tar", "a.unknownextension", "trailingdot.",
        ".hidden", ".db", ".plist", "a.wal", "-wal", "-journal", "x.realmlock", "a.b.c.verylongextensionname",
        "Den.sqlite-walx", "image.jpg.partial",
    ]

    @Test("names that need the first bytes", arguments: needContent)
    func unsettledNames(_ name: String) {
        #expect(sniffName(name) == nil, "\(name)")
    }

    @Test("size 0 is empty whatever the name says")
    func emptyBySize() {
        #expect(sniffName("photo.jpg", size: 0) == .empty)
        #expect(sniffName("prefs.plist", size: 0) == .empty)
        #expect(sniffName("._x", size: 0) == .empty)
        #expect(sniffName("noext", size: 1) == nil)
    }

    @Test("names that are not UTF-8 still match by their ASCII extension")
    func nonUTF8Names() {
        #expect(sniffName(bytes: [0xFF, 0xFE, 0x2E, 0x70, 0x6E, 0x67]) == .png)  // "\xFF\xFE.png"
        #expect(sniffName(bytes: [0x61, 0x2E, 0x70, 0x6E, 0xE7]) == nil)  // "a.pn\xE7"
        #expect(sniffName(bytes: []) == nil)
    }
}

@Suite("ContentSniffer: first bytes")
struct ContentSnifferContentTests {
    /// (what, prefix, file name, expected kind)
    static let signatures: [(String, [UInt8], String, ContentKind)] = [
        ("SQLite header", hexBytes("53514c69746520666f726d6174203300 1000 0202 00402020"), "store", .sqlite),
        ("WAL, big-endian checksums", hexBytes("377f0683 002de218 00001000 00000000"), "x", .sqliteWAL),
        ("WAL, little-endian checksums", hexBytes("377f0682 002de218 00001000 00000000"), "x", .sqliteWAL),
        ("hot journal", hexBytes("d9d505f920a163d7 00000000 ffffffff"), "x", .sqliteJournal),
        ("zeroed journal named -journal", [UInt8](repeating: 0, count: 28), "a.db-journal", .sqliteJournal),
        (
            "wal-index named -shm", hexBytes("18e22d00 00000000 01000000") + [UInt8](repeating: 0, count: 20),
            "a.db-shm", .sqliteSHM
        ),
        (
            "encrypted Realm named .realm", hexBytes("9c4f01a2e3b8d7f6 11c0de5a7b3e9f02 a4b6c8d0"), "default.realm",
            .realm
        ),
        ("binary plist (exclusion value)", backupExcludeValue, "plist", .binaryPlist),
        ("NSKeyedArchiver bplist", keyedArchivePrefix, "state.data", .keyedArchive),
        ("XML plist from plistlib", Array(xmlPlistPrefix.utf8), "prefs.plist", .xmlPlist),
        ("XML plist without declaration", Array("<plist version=\"1.0\"><dict/></plist>".utf8), "p", .xmlPlist),
        (
            "XML plist after BOM and blank line",
            [0xEF, 0xBB, 0xBF] + Array("\n<?xml version=\"1.0\"?>\n<plist>".utf8), "p", .xmlPlist
        ),
        ("XML that is not a plist", Array("<?xml version=\"1.0\"?>\n<note>hi</note>\n".utf8), "n", .text),
        ("empty Realm", hexBytes("0000000000000000 0000000000000000 542d4442 1717 00 00"), "default", .realm),
        ("KTX 1.1", hexBytes("ab4b5458203131bb0d0a1a0a 01020304"), "snap", .ktx),
        ("KTX 2.0", hexBytes("ab4b5458203230bb0d0a1a0a 00000000"), "snap", .ktx),
        ("JPEG", hexBytes("ffd8ffe000104a46494600"), "img", .jpeg),
        ("PNG", hexBytes("89504e470d0a1a0a0000000d49484452"), "img", .png),
        ("GIF", Array("GIF89a".utf8) + [1, 0, 1, 0], "img", .gif),
        ("WebP", Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8), "img", .webp),
        ("HEIC brand", hexBytes("00000018 66747970 68656963 00000000 6d696631 68656963"), "img", .heic),
        ("HEIF mif1 brand", hexBytes("00000018 66747970 6d696631 00000000 6d696631 68656963"), "img", .heic),
        ("HEIF sequence msf1", hexBytes("00000018 66747970 6d736631 00000000"), "img", .heic),
        ("MP4 mp42", hexBytes("00000018 66747970 6d703432 00000000 69736f6d 6d703432"), "clip", .mp4),
        ("M4V brand", Array(hexBytes("0000001c 66747970") + Array("M4V ".utf8)), "clip", .mp4),
        ("M4A brand", Array(hexBytes("00000020 66747970") + Array("M4A ".utf8)), "clip", .m4a),
        ("generic isom named .m4a", hexBytes("00000018 66747970 69736f6d 00000200"), "song.m4a", .m4a),
        ("generic isom named .MOV", hexBytes("00000018 66747970 69736f6d 00000200"), "take.MOV", .mov),
        ("QuickTime qt brand", Array(hexBytes("00000014 66747970") + Array("qt  ".utf8)), "clip", .mov),
        ("old MOV moov atom", hexBytes("0000006c 6d6f6f76 0000006c 6d766864"), "clip", .mov),
        ("old MOV mdat atom", hexBytes("00001000 6d646174 00000000"), "clip", .mov),
        ("old MOV wide atom", hexBytes("00000008 77696465 00a1b2c3 6d646174"), "clip", .mov),
        ("old MOV free atom", hexBytes("00000010 66726565 00000000"), "clip", .mov),
        ("PDF", Array("%PDF-1.7\n%\u{E2}".utf8), "doc", .pdf),
        ("zip", hexBytes("504b0304 14000000 0800"), "bundle", .zip),
        ("empty zip", hexBytes("504b0506 00000000 00000000"), "bundle", .zip),
        ("gzip", hexBytes("1f8b0800 00000000 0003"), "logs", .gzip),
        ("AppleDouble", hexBytes("00051607 00020000") + Array("Mac OS X        ".utf8) + [0, 2], "._x", .appleDouble),
        ("binarycookies", Array("cook".utf8) + hexBytes("00000001 00000124"), "Cookies", .binaryCookies),
        ("JSON object", Array("{\"version\": 3, \"items\": []}".utf8), "cfg", .json),
        ("JSON array after blanks", Array("  \n[1, 2, 3]".utf8), "cfg", .json),
        ("JSON array of objects", Array("[{\"k\":true}]".utf8), "cfg", .json),
        ("JSON array of literals", Array("[true, null]".utf8), "cfg", .json),
        ("empty JSON object", Array("{}".utf8), "cfg", .json),
        ("INI section", Array("[main]\nkey=value\n".utf8), "cfg", .text),
        ("log line with a bracketed date", Array("[2024-05-01 12:00] started\n".utf8), "log", .text),
        ("brace but no key", Array("{ not json }".utf8), "x", .text),
        ("text starting with cook", Array("cookbook recipes\n".utf8), "notes", .text),
        ("ASCII text", Array("hello world\n".utf8), "notes", .text),
        ("UTF-8 text", Array("héllo — ✓ 日本語\tend\r\n".utf8), "notes", .text),
        ("log with ANSI colour", Array("\u{1B}[31mERROR\u{1B}[0m disk full\n".utf8), "app", .text),
        ("long text with a late accent", Array("abcdefgh ijklmnop qrstuvwx é yz\n".utf8), "notes", .text),
        (
            "DEL inside the second word", Array("abcdefgh ijk".utf8) + [0x7F] + Array("lmnopqrstu".utf8), "blob",
            .unknown
        ),
        (
            "SOH inside the third word", Array("abcdefgh ijklmno pq".utf8) + [0x01] + Array("rstuvwx".utf8), "blob",
            .unknown
        ),
        (
            "high byte inside the second word", Array("abcdefgh ij".utf8) + [0xFF] + Array("klmnopqrstu".utf8), "blob",
            .unknown
        ),
        ("binary", hexBytes("00010203fefdfcfb"), "blob", .unknown),
        ("text with a NUL", Array("abc".utf8) + [0] + Array("def".utf8), "blob", .unknown),
        ("invalid UTF-8", [0x61, 0xC3, 0x28, 0x62], "blob", .unknown),
        ("overlong slash", [0x61, 0xC0, 0xAF], "blob", .unknown),
        ("UTF-16 surrogate in UTF-8", [0x61, 0xED, 0xA0, 0x80], "blob", .unknown),
        ("short file ending in a cut character", [0x61, 0xC3], "blob", .unknown),
        ("unknown ftyp brand, no hint", Array(hexBytes("00000018 66747970") + Array("zzzz".utf8)), "x", .mp4),
        ("zero-filled, no hint", [UInt8](repeating: 0, count: 64), "x", .unknown),
    ]

    @Test("signatures", arguments: signatures)
    func signature(_ row: (String, [UInt8], String, ContentKind)) {
        #expect(sniffContent(row.1, name: row.2) == row.3, "\(row.0)")
    }

    @Test("a full prefix cut inside a UTF-8 character is still text")
    func cutCharacter() {
        let text = Array(String(repeating: "a", count: ContentSniffer.prefixLength - 1).utf8) + [0xC3]
        #expect(text.count == ContentSniffer.prefixLength)
        #expect(sniffContent(text) == .text)
    }

    @Test("no bytes read means empty")
    func emptyPrefix() {
        #expect(sniffContent([]) == .empty)
    }

    @Test("signatures win over a misleading name")
    func contentBeatsName() {
        let png = hexBytes("89504e470d0a1a0a0000000d49484452")
        #expect(sniffContent(png, name: "photo.jpg") == .png)
        #expect(sniffContent(Array("hello".utf8), name: "Den.sqlite-wal") == .text)
        #expect(sniffContent(backupExcludeValue, name: "Cache.db-shm") == .binaryPlist)
    }

    @Test("the prefix length reaches every signature used")
    func prefixLengthCoversSignatures() {
        #expect(ContentSniffer.prefixLength >= 64)
        // The DOCTYPE line after plistlib's XML declaration must be inside the prefix.
        let cut = Array(Array(xmlPlistPrefix.utf8).prefix(ContentSniffer.prefixLength))
        #expect(sniffContent(cut) == .xmlPlist)
        let archive = Array(keyedArchivePrefix.prefix(ContentSniffer.prefixLength))
        #expect(sniffContent(archive) == .keyedArchive)
    }

    @Test("every content kind is reachable from a name or a signature")
    func everyKindIsCovered() {
        var seen = Set(Self.signatures.map(\.3))
        seen.formUnion(ContentSnifferNameTests.settledByName.map(\.1))
        seen.insert(.empty)
        let missing = ContentKind.allCases.filter { !seen.contains($0) }
        #expect(missing.isEmpty, "no test row yields \(missing.map(\.name))")
    }

    @Test("never reads outside short or odd prefixes")
    func shortPrefixes() {
        // Every prefix of every fixture, read without trapping: nothing is empty but the empty prefix, and the
        // whole fixture gives the row's kind.
        for row in Self.signatures {
            for length in 0...row.1.count {
                let kind = sniffContent(Array(row.1.prefix(length)), name: row.2)
                #expect((kind == .empty) == (length == 0), "\(row.0) cut to \(length) bytes")
                if length == row.1.count { #expect(kind == row.3, "\(row.0) whole") }
            }
        }
    }
}

/// `com.apple.metadata:com_apple_backup_excludeItem` as macOS writes it.
let backupExcludeValue = hexBytes(
    "62706c69737430305f1011636f6d2e6170706c652e6261636b75706408000000000000010100000000000000010000000000000000000000000000001c"
)

/// First 96 bytes of an NSKeyedArchiver-shaped bplist written by Python's plistlib.
let keyedArchivePrefix = hexBytes(
    "62706c6973743030d4010203040506070a582476657273696f6e592461726368697665725424746f7058246f626a6563747312000186a05f100f4e534b657965644172636869766572d1080954726f6f748001a20b0c55246e756c6c5568656c"
)

let xmlPlistPrefix = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    """
