import StocktakeContent
import StocktakeScan
import TestSupport
import Testing

private let excludeItem = "com.apple.metadata:com_apple_backup_excludeItem"

/// Runs a typed-throwing parse over the bytes of an array (whose `withUnsafeBytes` is untyped).
private func parsing<R>(
    _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(AppleDoubleError) -> R
) throws(AppleDoubleError) -> R {
    let result = bytes.withUnsafeBytes { raw in Result { () throws(AppleDoubleError) in try body(raw) } }
    return try result.get()
}

private func names(_ bytes: [UInt8]) throws(AppleDoubleError) -> [String] {
    try parsing(bytes) { raw throws(AppleDoubleError) in try AppleDouble.attributeNames(in: raw) }
}

private func attributes(_ bytes: [UInt8]) throws(AppleDoubleError) -> [AppleDouble.Attribute] {
    try parsing(bytes) { raw throws(AppleDoubleError) in try AppleDouble.attributes(in: raw) }
}

private func parseError(_ bytes: [UInt8]) -> AppleDoubleError? {
    do {
        _ = try names(bytes)
        return nil
    } catch {
        return error
    }
}

private func put(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
    bytes.replaceSubrange(offset..<offset + 4, with: AppleDoubleBuilder.bigEndian(value))
}

private func put(_ value: UInt16, at offset: Int, in bytes: inout [UInt8]) {
    bytes.replaceSubrange(offset..<offset + 2, with: AppleDoubleBuilder.bigEndian(value))
}

/// A sidecar whose only header entry is FinderInfo covering the rest of the file, with an ATTR
/// header at 84 claiming `count` attributes and entry bytes `entries` from 120.
private func minimalSidecar(count: UInt16, entries: [UInt8]) -> [UInt8] {
    var bytes = hexBytes("00051607 00020000") + Array("Mac OS X        ".utf8) + [0, 1]
    let total = 120 + entries.count
    bytes +=
        AppleDoubleBuilder.bigEndian(UInt32(9)) + AppleDoubleBuilder.bigEndian(UInt32(50))
        + AppleDoubleBuilder.bigEndian(UInt32(total - 50))
    bytes += [UInt8](repeating: 0, count: 84 - bytes.count)
    bytes += Array("ATTR".utf8) + [UInt8](repeating: 0, count: 30)
    bytes += AppleDoubleBuilder.bigEndian(count)
    bytes += entries
    return bytes
}

/// One attribute entry: value offset and length, flags 0, the stated name length, then `name`.
private func attributeEntry(valueOffset: UInt32, valueLength: UInt32, nameLength: UInt8, name: [UInt8]) -> [UInt8] {
    AppleDoubleBuilder.bigEndian(valueOffset) + AppleDoubleBuilder.bigEndian(valueLength) + [0, 0, nameLength] + name
}

@Suite("AppleDouble: layout and parsing")
struct AppleDoubleTests {
    @Test("the builder writes the layout of the reference hexdump")
    func referenceLayout() throws {
        let sidecar = AppleDoubleBuilder.sidecar(attributes: [(excludeItem, backupExcludeValue)])
        // A real sidecar's hexdump: "00051607 00020000 "Mac OS X        " 0002 | 00000009 00000032
        // 00000eb0 | 00000002 00000ee2 0000011e | …(finder info zeros)… | 41545452 …"
        let oracle =
            hexBytes("00051607 00020000") + Array("Mac OS X        ".utf8)
            + hexBytes("0002 00000009 00000032 00000eb0 00000002 00000ee2 0000011e")
        #expect(sidecar.count == 4096)
        #expect(Array(sidecar[0..<50]) == oracle)
        #expect(sidecar[50..<84].allSatisfy { $0 == 0 })
        #expect(Array(sidecar[84..<88]) == Array("ATTR".utf8))
        // namelen 48 (with NUL), entry length 60, data_start 180, value 61 bytes.
        #expect(Array(sidecar[96..<100]) == hexBytes("000000b4"))
        #expect(Array(sidecar[100..<104]) == hexBytes("0000003d"))
        #expect(Array(sidecar[118..<120]) == hexBytes("0001"))
        #expect(sidecar[130] == 48)
        #expect(Array(sidecar[180..<241]) == backupExcludeValue)
        let fork = Array(sidecar[0xEE2...])
        #expect(fork.count == 286)
        #expect(Array(fork[16..<62]) == Array("This resource fork intentionally left blank   ".utf8))
    }

    @Test("a sidecar laid out by hand from the reference parses to its attribute")
    func handWrittenOracle() throws {
        var bytes = [UInt8](repeating: 0, count: 4096)
        bytes.replaceSubrange(
            0..<50,
            with: hexBytes("00051607 00020000") + Array("Mac OS X        ".utf8)
                + hexBytes("0002 00000009 00000032 00000eb0 00000002 00000ee2 0000011e"))
        bytes.replaceSubrange(84..<88, with: Array("ATTR".utf8))
        put(UInt32(0xEE2), at: 92, in: &bytes)  // total size
        put(UInt32(180), at: 96, in: &bytes)  // data start
        put(UInt32(61), at: 100, in: &bytes)  // data length
        put(UInt16(1), at: 118, in: &bytes)  // one attribute
        put(UInt32(180), at: 120, in: &bytes)  // value offset
        put(UInt32(61), at: 124, in: &bytes)  // value length
        bytes[130] = 48
        bytes.replaceSubrange(131..<178, with: Array(excludeItem.utf8))
        bytes.replaceSubrange(180..<241, with: backupExcludeValue)

        let attributes = try attributes(bytes)
        #expect(attributes.map(\.name) == [excludeItem])
        #expect(attributes.first?.valueRange == 180..<241)
    }

    @Test("zero attributes")
    func zeroAttributes() throws {
        let sidecar = AppleDoubleBuilder.sidecar(attributes: [])
        #expect(sidecar.count == 4096)
        #expect(try names(sidecar) == [])
    }

    @Test("several attributes come back in order with their values")
    func severalAttributes() throws {
        let written: [(name: String, value: [UInt8])] = [
            ("com.apple.FinderInfo.x", [1, 2, 3]),
            (excludeItem, backupExcludeValue),
            ("com.apple.MobileBackup", [1]),
            ("com.apple.quarantine", Array("0081;5f1e;Safari;".utf8)),
            ("a", []),
            ("名前.ünïcode", [0xFF]),
        ]
        let sidecar = AppleDoubleBuilder.sidecar(attributes: written)
        let attributes = try attributes(sidecar)
        #expect(attributes.map(\.name) == written.map(\.name))
        for (read, original) in zip(attributes, written) {
            #expect(Array(sidecar[read.valueRange]) == original.value, "\(original.name)")
        }
    }

    @Test("attributes that do not fit in 4096 bytes grow the file and still parse")
    func largeValues() throws {
        let big = [UInt8](repeating: 0xAB, count: 10_000)
        let sidecar = AppleDoubleBuilder.sidecar(attributes: [("user.big", big), (excludeItem, backupExcludeValue)])
        #expect(sidecar.count > 4096)
        #expect(try names(sidecar) == ["user.big", excludeItem])
    }

    @Test("FinderInfo without an ATTR block carries no attributes")
    func finderInfoOnly() throws {
        var bytes = hexBytes("00051607 00020000") + Array("Mac OS X        ".utf8)
        bytes += hexBytes("0002 00000009 00000032 00000020 00000002 00000052 00000000")
        bytes += Array("TEXTttxt".utf8) + [UInt8](repeating: 0, count: 24)  // Finder info: type and creator
        #expect(bytes.count == 82)
        #expect(try names(bytes) == [])
    }

    @Test("a resource-fork-only sidecar carries no attributes")
    func resourceForkOnly() throws {
        var bytes = hexBytes("00051607 00020000") + Array("Mac OS X        ".utf8)
        bytes += hexBytes("0001 00000002 00000026 0000011e")
        bytes += AppleDoubleBuilder.emptyResourceFork()
        #expect(bytes.count == 38 + 286)
        #expect(try names(bytes) == [])
    }

    @Test("a header with no entries carries no attributes")
    func noEntries() throws {
        let bytes = hexBytes("00051607 00020000") + [UInt8](repeating: 0, count: 16) + [0, 0]
        #expect(try names(bytes) == [])
    }

    @Test("header check")
    func headerCheck() {
        let header = AppleDoubleBuilder.sidecar(attributes: [])
        #expect(header.withUnsafeBytes { AppleDouble.hasHeader($0) })
        #expect(Array(header.prefix(8)).withUnsafeBytes { AppleDouble.hasHeader($0) })
        #expect(!Array(header.prefix(7)).withUnsafeBytes { AppleDouble.hasHeader($0) })
        #expect(!hexBytes("00051600 00020000").withUnsafeBytes { AppleDouble.hasHeader($0) })  // AppleSingle
        #expect(!hexBytes("00051607 00010000").withUnsafeBytes { AppleDouble.hasHeader($0) })  // version 1
        #expect(![UInt8]().withUnsafeBytes { AppleDouble.hasHeader($0) })
    }

    @Test("sidecar names map to their targets")
    func targetNames() {
        func target(_ name: String) -> String? {
            withName(name) { AppleDouble.targetName(ofSidecar: $0) }.map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(target("._Den.sqlite") == "Den.sqlite")
        #expect(target("._.") == ".")
        #expect(target("._._x") == "._x")
        #expect(target("._") == nil)
        #expect(target("Den.sqlite") == nil)
        #expect(target("_.x") == nil)
        #expect(target(".") == nil)
        #expect(target("") == nil)
        let raw: [UInt8] = [0x2E, 0x5F, 0xFF, 0x00, 0x41]
        #expect(raw.withUnsafeBufferPointer { AppleDouble.targetName(ofSidecar: $0) } == [0xFF, 0x00, 0x41])
    }
}

@Suite("AppleDouble: hostile sidecars")
struct AppleDoubleHostileTests {
    static let valid = AppleDoubleBuilder.sidecar(attributes: [
        (excludeItem, backupExcludeValue), ("com.apple.MobileBackup", [1]),
    ])

    @Test("every truncation throws instead of crashing")
    func everyTruncation() {
        let accepted = (0..<Self.valid.count).first { parseError(Array(Self.valid.prefix($0))) == nil }
        #expect(accepted == nil, "a sidecar cut to this many bytes was accepted")
        #expect(parseError(Self.valid) == nil)
    }

    @Test("cut headers and foreign files get distinct reasons")
    func headerReasons() {
        #expect(parseError([])?.reason == .truncatedHeader)
        #expect(parseError([0x00, 0x05, 0x16])?.reason == .truncatedHeader)
        #expect(parseError(Array(Self.valid.prefix(20)))?.reason == .truncatedHeader)
        #expect(parseError(Array("not a sidecar at all".utf8))?.reason == .notAppleDouble)
        #expect(parseError(hexBytes("00051600 00020000") + [UInt8](repeating: 0, count: 40))?.reason == .notAppleDouble)
    }

    @Test("an entry past the end of the file throws")
    func entryOutOfRange() {
        var bytes = Self.valid
        put(UInt32(0xEE2 + 1000), at: 42, in: &bytes)  // resource fork offset
        #expect(parseError(bytes)?.reason == .entryOutOfRange(index: 1, entryID: 2))

        bytes = Self.valid
        put(UInt32(0xFFFF_FFFF), at: 30, in: &bytes)  // FinderInfo offset
        put(UInt32(0xFFFF_FFFF), at: 34, in: &bytes)  // and length: the sum overflows 32 bits
        #expect(parseError(bytes)?.reason == .entryOutOfRange(index: 0, entryID: 9))
    }

    @Test("a huge entry count throws")
    func hugeEntryCount() {
        var bytes = Self.valid
        put(UInt16(0xFFFF), at: 24, in: &bytes)
        #expect(parseError(bytes)?.reason == .truncatedHeader)
    }

    @Test("a huge attribute count throws")
    func hugeAttributeCount() {
        var bytes = Self.valid
        put(UInt16(0xFFFF), at: 118, in: &bytes)
        #expect(parseError(bytes)?.reason == .tooManyAttributes(65535))

        put(UInt16(1025), at: 118, in: &bytes)
        #expect(parseError(bytes)?.reason == .tooManyAttributes(1025))

        // Within the limit but more than the file holds: the bytes after the real entries (the
        // values, then zeros) do not read as valid entries.
        put(UInt16(1024), at: 118, in: &bytes)
        #expect(parseError(bytes) != nil)
    }

    @Test("name length 0 throws")
    func zeroNameLength() {
        var bytes = Self.valid
        bytes[130] = 0
        #expect(parseError(bytes)?.reason == .emptyAttributeName(index: 0))
        bytes[130] = 1
        #expect(parseError(bytes)?.reason == .emptyAttributeName(index: 0))
    }

    @Test("a name running past the end of the file throws")
    func nameRunsPastEnd() {
        let entry = attributeEntry(valueOffset: 0, valueLength: 0, nameLength: 200, name: Array("com.apple".utf8))
        #expect(parseError(minimalSidecar(count: 1, entries: entry))?.reason == .attributeEntryOutOfRange(index: 0))
        // The fixed part itself cut short.
        let cut = Array(entry.prefix(7))
        #expect(parseError(minimalSidecar(count: 1, entries: cut))?.reason == .attributeEntryOutOfRange(index: 0))
    }

    @Test("a name that is not NUL-terminated UTF-8 throws")
    func badNames() {
        let unterminated = attributeEntry(valueOffset: 0, valueLength: 0, nameLength: 4, name: Array("abcd".utf8))
        #expect(parseError(minimalSidecar(count: 1, entries: unterminated))?.reason == .invalidAttributeName(index: 0))
        let invalid = attributeEntry(valueOffset: 0, valueLength: 0, nameLength: 4, name: [0x61, 0xC3, 0x28, 0])
        #expect(parseError(minimalSidecar(count: 1, entries: invalid))?.reason == .invalidAttributeName(index: 0))
        let inner = attributeEntry(valueOffset: 0, valueLength: 0, nameLength: 4, name: [0x61, 0, 0x62, 0])
        #expect(parseError(minimalSidecar(count: 1, entries: inner))?.reason == .invalidAttributeName(index: 0))
        let good = attributeEntry(valueOffset: 0, valueLength: 0, nameLength: 4, name: [0x61, 0x62, 0x63, 0])
        #expect(parseError(minimalSidecar(count: 1, entries: good)) == nil)
    }

    @Test("a value past the end of the file throws")
    func valueOutOfRange() {
        var bytes = Self.valid
        put(UInt32(4090), at: 120, in: &bytes)  // first value offset: 61 bytes from 4090 overrun 4096
        #expect(parseError(bytes)?.reason == .attributeValueOutOfRange(index: 0))
        bytes = Self.valid
        put(UInt32(0xFFFF_FFFF), at: 120, in: &bytes)
        put(UInt32(0xFFFF_FFFF), at: 124, in: &bytes)
        #expect(parseError(bytes)?.reason == .attributeValueOutOfRange(index: 0))
    }

    @Test("an ATTR header beyond the first 64 KiB throws")
    func headerBeyondLimit() {
        let finderInfoOffset = 70_000
        var bytes = hexBytes("00051607 00020000") + Array("Mac OS X        ".utf8) + [0, 1]
        bytes +=
            AppleDoubleBuilder.bigEndian(UInt32(9)) + AppleDoubleBuilder.bigEndian(UInt32(finderInfoOffset))
            + AppleDoubleBuilder.bigEndian(UInt32(200))
        bytes += [UInt8](repeating: 0, count: finderInfoOffset + 34 - bytes.count)
        bytes += Array("ATTR".utf8) + [UInt8](repeating: 0, count: 200 - 34 - 4)
        #expect(parseError(bytes)?.reason == .attributeHeaderBeyondLimit)
    }

    @Test("random corruption never crashes, and accepted values lie inside the file")
    func mutationFuzz() {
        var random = SeededGenerator(seed: 0x5EED_AD0B)
        var outcomes = (parsed: 0, rejected: 0)
        for _ in 0..<3000 {
            var bytes = Self.valid
            for _ in 0..<(1 + Int(random.next() % 4)) {
                // Bias mutations toward the header and entries, where the structure lives.
                let position = Int(random.next() % (random.next() % 2 == 0 ? 260 : UInt64(bytes.count)))
                bytes[position] = UInt8(truncatingIfNeeded: random.next())
            }
            if random.next() % 4 == 0 { bytes.removeLast(Int(random.next() % UInt64(bytes.count))) }
            do {
                let attributes = try attributes(bytes)
                #expect(attributes.allSatisfy { $0.valueRange.upperBound <= bytes.count })
                #expect(attributes.count <= AppleDouble.maxAttributes)
                outcomes.parsed += 1
            } catch {
                #expect(!error.description.isEmpty)
                outcomes.rejected += 1
            }
        }
        // Both paths must have been exercised for the run to mean anything.
        #expect(outcomes.parsed > 0)
        #expect(outcomes.rejected > 0)
    }

    @Test("errors say what is wrong and what to do")
    func errorMessage() {
        let error = AppleDoubleError(.attributeValueOutOfRange(index: 2), at: 144)
        #expect(error.description.contains("attribute 2"))
        #expect(error.description.contains("byte 144"))
        #expect(error.description.contains("backup-exclusion"))
    }
}
