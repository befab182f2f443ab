import StocktakeModel
import StocktakePropertyLists
import StocktakeScan
import TestSupport
import Testing

private typealias Fixtures = PropertyListFixtures
private typealias Builder = BinaryPlistBuilder

/// The error message of a parse that must fail, or a test failure when it parses.
private func failure(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> String {
    do {
        let value = try PropertyListReader.parse(bytes)
        Issue.record("expected an error, parsed \(value)", sourceLocation: sourceLocation)
        return ""
    } catch {
        return error.description
    }
}

@Suite("Binary property lists: valid files")
struct BinaryPropertyListValidTests {
    @Test func readsTheBackupExclusionValue() throws {
        #expect(Fixtures.backupExclusion.count == 61)
        #expect(try PropertyListReader.parse(Fixtures.backupExclusion) == .string("com.apple.backupd"))
    }

    @Test func readsEveryTypePlistlibWrites() throws {
        #expect(try PropertyListReader.parse(Fixtures.allTypesBinary) == Fixtures.allTypesValue)
    }

    @Test func readsTwoByteReferencesOffsetsAndCounts() throws {
        let expected: [PropertyListValue] =
            (0..<299).map { .integer(Int64($0)) } + [.string(String(repeating: "ü", count: 300))]
        #expect(try PropertyListReader.parse(Fixtures.wideReferencesBinary) == .array(expected))
    }

    @Test func readsAKeyedArchiveWithUIDs() throws {
        let archive = try PropertyListReader.parse(Fixtures.keyedArchiveBinary)
        #expect(archive["$archiver"] == .string("NSKeyedArchiver"))
        #expect(archive["$version"] == .integer(100_000))
        #expect(archive["$top"]?["root"] == .uid(1))
        guard case .array(let objects) = archive["$objects"] else {
            Issue.record("$objects is not an array: \(archive)")
            return
        }
        #expect(objects.count == 4)
        #expect(objects.first == .string("$null"))
        #expect(objects[1]["$class"] == .uid(2))
        #expect(objects[1]["NS.string"] == .string("hello"))
        #expect(objects[2]["$classes"] == .array([.string("NSString"), .string("NSObject")]))
        #expect(objects[3] == .uid(300))
    }

    @Test func readsSixteenByteIntegersThatFitIn64Bits() throws {
        let fortyTwo = Builder([[0x14] + Array(repeating: 0, count: 15) + [42]]).bytes
        #expect(try PropertyListReader.parse(fortyTwo) == .integer(42))
        let minusOne = Builder([[0x14] + Array(repeating: 0xFF, count: 16)]).bytes
        #expect(try PropertyListReader.parse(minusOne) == .integer(-1))
    }

    @Test func refusesSixteenByteIntegersBeyond64Bits() {
        #expect(failure(Fixtures.unsignedMaxBinary).contains("does not fit in 64 bits"))
    }

    @Test func readsFloat32Reals() throws {
        let onePointFive = Builder([[0x22, 0x3F, 0xC0, 0x00, 0x00]]).bytes
        #expect(try PropertyListReader.parse(onePointFive) == .real(1.5))
    }

    @Test func readsSharedReferencesOnce() throws {
        // Object 1 appears twice; sharing is legal as long as it does not explode.
        let shared = Builder([Builder.array([1, 1]), Builder.ascii("same")]).bytes
        #expect(try PropertyListReader.parse(shared) == .array([.string("same"), .string("same")]))
    }

    @Test func readsASetAsAnArray() throws {
        // The one-bit change (dict 0xD1 → set 0xC1) that crashes Foundation's reader on Linux.
        var mutated = Fixtures.nestedDictionaryBinary
        let marker = try #require(mutated.firstIndex(of: 0xD1))
        mutated[marker] = 0xC1
        let value = try PropertyListReader.parse(mutated)
        #expect(value["CFBundleIdentifier"] == .string("com.example.app"))
        // A one-element set holding the dictionary's first reference, its key.
        #expect(value["nested"] == .array([.string("k")]))
    }

    @Test func acceptsNestingUpTo64Containers() throws {
        let objects = (0..<64).map { index in index == 63 ? Builder.array([]) : Builder.array([UInt8(index + 1)]) }
        var expected: PropertyListValue = .array([])
        for _ in 0..<63 { expected = .array([expected]) }
        #expect(try PropertyListReader.parse(Builder(objects).bytes) == expected)
    }
}

@Suite("Binary property lists: hostile files")
struct BinaryPropertyListHostileTests {
    @Test func everyTruncationIsRefused() {
        for fixture in [Fixtures.backupExclusion, Fixtures.allTypesBinary, Fixtures.keyedArchiveBinary] {
            for length in 0..<fixture.count {
                #expect(throws: PropertyListError.self, "prefix of \(length) bytes") {
                    try PropertyListReader.parse(Array(fixture.prefix(length)))
                }
            }
        }
    }

    @Test func everyByteValueAtEveryOffsetOfASmallPlistParsesOrThrows() {
        // The test passing proves no mutation crashes, hangs or traps the reader.
        let original = Fixtures.backupExclusion
        var refused = 0
        for offset in original.indices {
            for value in 0...255 where UInt8(value) != original[offset] {
                var mutated = original
                mutated[offset] = UInt8(value)
                if (try? PropertyListReader.parse(mutated)) == nil { refused += 1 }
            }
        }
        // Header, marker and trailer damage must be caught, not silently accepted.
        #expect(refused > 61 * 100)
    }

    @Test func singleByteMutationsOfLargerPlistsParseOrThrow() {
        for original in [Fixtures.allTypesBinary, Fixtures.keyedArchiveBinary, Fixtures.wideReferencesBinary] {
            var refused = 0
            for offset in original.indices {
                for value: UInt8 in [
                    0x00, 0xFF, 0x0F, 0xD1, 0xAF, 0x6F, original[offset] ^ 0x01, original[offset] ^ 0x80,
                ] {
                    var mutated = original
                    mutated[offset] = value
                    if (try? PropertyListReader.parse(mutated)) == nil { refused += 1 }
                }
            }
            #expect(refused > 0)
        }
    }

    @Test func refusesAnArrayHoldingItself() {
        #expect(failure(Builder([Builder.array([0])]).bytes).contains("cycle"))
    }

    @Test func refusesAnIndirectCycle() {
        let cycle = Builder([Builder.array([1]), Builder.dictionary(keys: [2], values: [0]), Builder.ascii("back")])
            .bytes
        #expect(failure(cycle).contains("object 0 at offset 8 contains itself (a reference cycle)"))
    }

    @Test func refusesSharedReferencesThatExpandExponentially() {
        // 40 levels of [next, next]: a 200-byte file describing 2^40 values.
        var objects = (0..<40).map { Builder.array([UInt8($0 + 1), UInt8($0 + 1)]) }
        objects.append([0x09])
        #expect(failure(Builder(objects).bytes).contains("more than 1000000 values"))
    }

    @Test func refusesSharedReferencesToOneLargeObjectByDecodedBytes() {
        // 50,000 references to one 60,000-byte data object: 110 KB describing 3 GB, far under the value count.
        var builder = Builder([
            Builder.array([UInt8](repeating: 1, count: 50_000)),
            Builder.container(0x40, count: 60_000) + [UInt8](repeating: 0x41, count: 60_000),
        ])
        builder.offsetIntSize = 4
        let bytes = builder.bytes
        let limit = 64 * 1024 + 16 * bytes.count
        #expect(
            failure(bytes).contains(
                "decodes to more than \(limit) bytes of strings and data, the limit for a \(bytes.count)-byte file"))
        // The same object referenced a few times, as writers share equal strings, still reads.
        var shared = Builder([
            Builder.array([1, 1, 1, 1]),
            Builder.container(0x40, count: 60_000) + [UInt8](repeating: 0x41, count: 60_000),
        ])
        shared.offsetIntSize = 4
        #expect((try? PropertyListReader.parse(shared.bytes)) != nil)
    }

    @Test func refusesNestingDeeperThan64() {
        let objects = (0..<65).map { index in index == 64 ? Builder.array([]) : Builder.array([UInt8(index + 1)]) }
        #expect(failure(Builder(objects).bytes).contains("nested more than 64 containers deep"))
    }

    @Test func refusesAnObjectOffsetPastTheEnd() {
        var builder = Builder([Builder.array([1]), Builder.ascii("x")])
        builder.offsetOverrides[1] = 912
        let bytes = builder.bytes
        #expect(failure(bytes) == "binary plist: object 1 offset 912 is past the end of the \(bytes.count)-byte file")
    }

    @Test func refusesAnObjectOffsetInsideTheHeaderOrTable() {
        var intoHeader = Builder([Builder.ascii("x")])
        intoHeader.offsetOverrides[0] = 3
        #expect(failure(intoHeader.bytes).contains("outside the object area"))
        var intoTable = Builder([Builder.ascii("x")])
        intoTable.offsetOverrides[0] = 10
        #expect(failure(intoTable.bytes).contains("outside the object area"))
    }

    @Test func refusesAnOffsetTableThatDoesNotFit() {
        var beyondEnd = Builder([Builder.ascii("x")])
        beyondEnd.offsetTableOffsetOverride = 5_000
        #expect(failure(beyondEnd.bytes).contains("offset table offset 5000 is outside"))
        var tooManyObjects = Builder([Builder.ascii("x"), Builder.ascii("y"), Builder.ascii("z")])
        tooManyObjects.objectCountOverride = 20
        #expect(failure(tooManyObjects.bytes).contains("does not fit before the trailer"))
        var absurdCount = Builder([Builder.ascii("x")])
        absurdCount.objectCountOverride = .max
        #expect(failure(absurdCount.bytes).contains("claims 18446744073709551615 objects"))
    }

    @Test func refusesBadTrailerFields() {
        var missingTop = Builder([Builder.ascii("x")])
        missingTop.topObject = 1
        #expect(failure(missingTop.bytes).contains("top object 1 does not exist"))
        var zeroOffsetSize = Builder([Builder.ascii("x")])
        zeroOffsetSize.offsetIntSize = 0
        #expect(failure(zeroOffsetSize.bytes).contains("offset size of 0 bytes"))
        var hugeReferenceSize = Builder([Builder.ascii("x")])
        hugeReferenceSize.objectRefSize = 9
        #expect(failure(hugeReferenceSize.bytes).contains("object reference size of 9 bytes"))
    }

    @Test func refusesAReferenceToAMissingObject() {
        #expect(failure(Builder([Builder.array([7])]).bytes).contains("refers to object 7, but the file has 1 object"))
    }

    @Test func refusesCountsLargerThanTheFile() {
        // Data claiming 60,000 bytes or 10 bytes with 2 present; an array claiming 4 elements, none present.
        #expect(failure(Builder([[0x4F, 0x11, 0xEA, 0x60, 1, 2]]).bytes).contains("claims 60000 elements"))
        #expect(failure(Builder([[0x4A, 1, 2]]).bytes).contains("past the end of the object area"))
        #expect(failure(Builder([[0xA4]]).bytes).contains("past the end of the object area"))
    }

    @Test func refusesNonStringDictionaryKeys() {
        let intKey = Builder([Builder.dictionary(keys: [1], values: [2]), [0x10, 5], Builder.ascii("v")]).bytes
        #expect(failure(intKey).contains("keys must be strings"))
    }

    @Test func refusesInvalidStrings() {
        let loneSurrogate = Builder([[0x62, 0xD8, 0x00, 0x00, 0x41]]).bytes
        #expect(failure(loneSurrogate).contains("unpaired surrogate"))
        let highByteASCII = Builder([[0x52, 0x41, 0xE9]]).bytes
        #expect(failure(highByteASCII).contains("byte above 0x7F"))
    }

    @Test func refusesUnknownMarkersAndNulls() {
        #expect(failure(Builder([[0x70]]).bytes).contains("unknown marker 0x70"))
        #expect(failure(Builder([[0x00]]).bytes).contains("null"))
        #expect(failure(Builder([[0x15, 0, 0]]).bytes).contains("at most 16 are allowed"))
        #expect(failure(Builder([[0x88] + Array(repeating: 1, count: 9)]).bytes).contains("UID of 9 bytes"))
    }

    @Test func refusesInputThatIsNoPropertyList() {
        #expect(failure(Array("bplist00garbage".utf8)).contains("too short"))
        #expect(failure([]).contains("an empty file"))
        #expect(failure(Array("hello world".utf8)).contains("expected a binary plist (bplist00) or an XML plist"))
        #expect(
            failure(Array("bplist15".utf8) + Array(repeating: 0, count: 40)).contains("version \"15\" is not supported")
        )
    }
}

@Suite("XML property lists")
struct XMLPropertyListTests {
    private func xml(_ body: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\(body)</plist>\n".utf8)
    }

    @Test func readsEveryTypePlistlibWrites() throws {
        #expect(try PropertyListReader.parse(Fixtures.allTypesXML) == Fixtures.allTypesValue)
    }

    @Test func readsDatesDataAndIntegersInTheirTextForms() throws {
        #expect(try PropertyListReader.parse(xml("<date>2026-11-21T02:00:00Z</date>")) == .date(816_919_200))
        #expect(try PropertyListReader.parse(xml("<date>2001-01-01T00:00:00Z</date>")) == .date(0))
        #expect(try PropertyListReader.parse(xml("<date>1969-12-31T23:59:59Z</date>")) == .date(-978_307_201))
        #expect(try PropertyListReader.parse(xml("<data>\n\tAAEC\n\tAwQ=\n</data>")) == .data([0, 1, 2, 3, 4]))
        // Padding is optional but never more than the last group lacks; padding mid-data is invalid.
        #expect(try PropertyListReader.parse(xml("<data>QQ</data>")) == .data([65]))
        #expect(try PropertyListReader.parse(xml("<data>QQ==</data>")) == .data([65]))
        #expect(try PropertyListReader.parse(xml("<data>QUI</data>")) == .data([65, 66]))
        for invalid in ["QQ===", "Q", "QQ==QQ==", "QUJD="] {
            #expect(failure(xml("<data>\(invalid)</data>")).contains("valid base64"), "\(invalid)")
        }
        #expect(try PropertyListReader.parse(xml("<integer> 0x1F </integer>")) == .integer(31))
        #expect(
            try PropertyListReader.parse(xml("<string>a &amp; b &lt;c&gt; <![CDATA[<d>]]></string>"))
                == .string("a & b <c> <d>"))
    }

    @Test func refusesMalformedXML() {
        #expect(
            failure(xml("<dict><key>a</key><string>b</dict>"))
                == "XML plist: line 2: </dict> closes <string> opened at line 2")
        #expect(
            failure(Array("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8))
                == "XML plist: line 1: <dict> is never closed: the document ends first")
        #expect(
            failure(Array("<plist>\u{0}</plist>".utf8)) == "XML plist: line 1: character U+0000 is not allowed in XML")
        #expect(failure(xml("<string>a & b</string>")).contains("'&' that starts no reference"))
        #expect(failure(xml("<string attr=unquoted>a</string>")).contains("expected a quoted attribute value"))
        #expect(failure(xml("<string>a</string>") + Array("<extra/>".utf8)).contains("content after the root element"))
        #expect(failure(Array("<plist><string>a</string></plist".utf8)).contains("expected '>' to close </plist>"))
        #expect(failure(Array("<plist><!-- never closed".utf8)).contains("<!-- is never closed"))
        #expect(failure(Array("   ".utf8)).contains("not a property list"))
        #expect(failure(Array("<?xml version=\"1.0\"?>".utf8)) == "XML plist: the document has no root element")
    }

    /// The forms real writers use beside plistlib's: comments and processing instructions anywhere, a
    /// DOCTYPE with an internal subset, single-quoted attributes, self-closing containers and leaves.
    @Test func readsTheMarkupRealWritersUse() throws {
        let document = """
            <?xml version='1.0' encoding='utf-8'?>
            <!-- written by hand -->
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd" [ <!-- ] --> ]>
            <plist version='1.0'>
              <dict>
                <?pi inside?><key>a&#x20;b&#65;</key><string/>
                <key>list</key><array/>
                <key>map</key><dict/>
                <!-- between -->
                <key>cdata</key><string><![CDATA[x]]>y<!-- no -->z</string>
              </dict>
            </plist>
            <!-- trailing -->
            """
        #expect(
            try PropertyListReader.parse(Array(document.utf8))
                == .dictionary([
                    "a bA": .string(""), "list": .array([]), "map": .dictionary([:]), "cdata": .string("xyz"),
                ]))
    }

    /// UTF-16 in either byte order, with or without a byte-order mark, ISO-8859-1 by declaration, and a
    /// UTF-8 byte-order mark; bytes that are not valid in the encoding are refused with their line.
    @Test func readsEveryEncodingItDeclaresAndRefusesBrokenText() throws {
        let body = "<plist><string>Grüße 🍏</string></plist>"
        let expected = PropertyListValue.string("Grüße 🍏")
        let bigEndian = body.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let littleEndian = body.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try PropertyListReader.parse([0xFE, 0xFF] + bigEndian) == expected)
        #expect(try PropertyListReader.parse([0xFF, 0xFE] + littleEndian) == expected)
        #expect(try PropertyListReader.parse(bigEndian) == expected)
        #expect(try PropertyListReader.parse(littleEndian) == expected)
        #expect(try PropertyListReader.parse([0xEF, 0xBB, 0xBF] + Array(body.utf8)) == expected)
        let latin1 =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist><string>Gr".utf8) + [0xFC, 0xDF]
            + Array("e</string></plist>".utf8)
        #expect(try PropertyListReader.parse(latin1) == .string("Grüße"))
        #expect(
            failure(Array("<plist>\n<string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8))
                == "XML plist: encoding error: line 2: byte 0xC3 at offset 16 is not valid UTF-8")
        #expect(failure([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x41, 0x00]).contains("unpaired UTF-16 surrogate"))
        #expect(
            failure(Array("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><plist/>".utf8)).contains(
                "\"shift_jis\" is not supported"))
    }

    @Test func refusesUnknownElementsAndStrayContent() {
        #expect(failure(xml("<dict><key>a</key><banana/></dict>")).contains("unknown element <banana>"))
        #expect(failure(Array("<html><body/></html>".utf8)).contains("unknown element <html>"))
        #expect(failure(xml("<dict><key>a</key></dict>")).contains("<key> without a value"))
        #expect(failure(xml("<dict><string>a</string><true/></dict>")).contains("where a <key> was expected"))
        #expect(failure(xml("<array>loose text</array>")).contains("text directly inside <array>"))
        #expect(failure(xml("<string>a<b/></string>")).contains("may hold only text"))
        #expect(failure(xml("<true/><false/>")).contains("holds 2 values"))
    }

    @Test func refusesBadScalarText() {
        #expect(failure(xml("<integer>12abc</integer>")).contains("not an integer"))
        #expect(failure(xml("<integer>9223372036854775808</integer>")).contains("above the signed 64-bit range"))
        #expect(failure(xml("<real>fast</real>")).contains("not a number"))
        #expect(failure(xml("<date>2026-02-30T00:00:00Z</date>")).contains("expected a UTC date"))
        #expect(failure(xml("<date>yesterday</date>")).contains("expected a UTC date"))
        #expect(failure(xml("<data>not base64!</data>")).contains("valid base64"))
    }

    @Test func refusesEntityDeclarations() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
              <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
            ]>
            <plist><string>&lol3;</string></plist>
            """
        #expect(failure(Array(laughs.utf8)).contains("declares entities"))
    }

    @Test func refusesUndeclaredEntities() {
        #expect(
            failure(xml("<string>&bogus;</string>"))
                == "XML plist: line 2: entity &bogus; is not defined; property lists use only &lt; &gt; &amp; &quot; &apos;"
        )
    }

    @Test func refusesNestingDeeperThan64() throws {
        let depth64 = String(repeating: "<array>", count: 64) + String(repeating: "</array>", count: 64)
        #expect(throws: Never.self) { try PropertyListReader.parse(xml(depth64)) }
        let depth65 = String(repeating: "<array>", count: 65) + String(repeating: "</array>", count: 65)
        #expect(failure(xml(depth65)).contains("nested more than 64 deep"))
    }
}

@Suite("Reading property-list files")
struct PropertyListFileTests {
    @Test func readsARegularFile() throws {
        let tree = try TemporaryTree()
        try tree.write("Info.plist", bytes: Fixtures.allTypesBinary)
        #expect(try PropertyListReader.read(contentsOfFile: tree.path("Info.plist")) == Fixtures.allTypesValue)
    }

    @Test func refusesASymbolicLink() throws {
        let tree = try TemporaryTree()
        try tree.write("real.plist", bytes: Fixtures.backupExclusion)
        try tree.symlink("link.plist", to: "real.plist")
        let error = #expect(throws: PropertyListError.self) {
            try PropertyListReader.read(contentsOfFile: tree.path("link.plist"))
        }
        #expect(error?.description.contains("symbolic link") == true)
    }

    @Test func refusesAFIFOWithoutBlocking() throws {
        let tree = try TemporaryTree()
        try tree.mkfifo("pipe.plist")
        let error = #expect(throws: PropertyListError.self) {
            try PropertyListReader.read(contentsOfFile: tree.path("pipe.plist"))
        }
        #expect(error?.description.contains("FIFO") == true)
    }

    @Test func refusesAFolderAMissingFileAndAnOversizedFile() throws {
        let tree = try TemporaryTree()
        try tree.mkdir("Folder.plist")
        try tree.write("big.plist", bytes: Fixtures.allTypesBinary)
        let folder = #expect(throws: PropertyListError.self) {
            try PropertyListReader.read(contentsOfFile: tree.path("Folder.plist"))
        }
        #expect(folder?.description.contains("folder") == true)
        let missing = #expect(throws: PropertyListError.self) {
            try PropertyListReader.read(contentsOfFile: tree.path("none.plist"))
        }
        #expect(missing?.description.contains("No such file") == true)
        let oversized = #expect(throws: PropertyListError.self) {
            try PropertyListReader.read(contentsOfFile: tree.path("big.plist"), maxBytes: 100)
        }
        #expect(oversized?.description.contains("more than the 100-byte limit") == true)
    }

    @Test func namesTheFileWhenItsContentIsMalformed() throws {
        let tree = try TemporaryTree()
        try tree.write("broken.plist", string: "bplist00garbage")
        let error = #expect(throws: PropertyListError.self) {
            try PropertyListReader.read(contentsOfFile: tree.path("broken.plist"))
        }
        #expect(error?.description.hasPrefix(tree.path("broken.plist") + ": binary plist:") == true)
    }
}

@Suite("Large XML property lists")
struct LargeXMLPropertyListTests {
    /// Each item's line was once counted from the start of the document: a plist of a few MB never finished (the
    /// suite then hangs rather than passes). Lines come from an index of the newlines: the last one is still right.
    @Test
    func readsAFourMegabytePlist() throws {
        var body = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n"
        for index in 0..<60_000 {
            body += "\t<key>k\(index)</key>\n\t<array>\n\t\t<integer>\(index)</integer>\n\t\t<true/>\n\t</array>\n"
        }
        body += "</dict>\n</plist>\n"
        #expect(body.utf8.count > 4_000_000)
        let value = try PropertyListReader.parse(Array(body.utf8))
        #expect(value["k59999"] == .array([.integer(59_999), .bool(true)]))
        if case .dictionary(let entries) = value {
            #expect(entries.count == 60_000)
        } else {
            Issue.record("not a dictionary")
        }
        // 3 lines of header, 5 per item: the stray markup is on line 300,004.
        let broken = body.replacingOccurrences(of: "</dict>\n", with: "<key>late</key><integer>1</dict>\n")
        let error = #expect(throws: PropertyListError.self) { try PropertyListReader.parse(Array(broken.utf8)) }
        #expect(error?.description.contains("line 300004") == true, "\(String(describing: error))")
    }
}
