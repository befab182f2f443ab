import Foundation
import StocktakeRendering
import TestSupport
import Testing

/// The streaming writer on its own: any nesting of compact and indented containers is valid JSON, and
/// every character JSON forbids raw in a string is escaped.
@Suite struct JSONStreamTests {
    /// Runs `body` against a stream and returns everything the sink received, plus how many chunks it got.
    static func capture(_ body: (JSONStream) throws -> Void) throws -> (bytes: [UInt8], chunks: Int) {
        nonisolated(unsafe) var bytes: [UInt8] = []
        nonisolated(unsafe) var chunks = 0
        let stream = JSONStream { chunk in
            bytes.append(contentsOf: chunk)
            chunks += 1
        }
        try body(stream)
        try stream.finish()
        return (bytes, chunks)
    }

    /// Every byte JSON forbids raw inside a string (0x00–0x1F), DEL, the quote and the backslash.
    static let hostile = String(decoding: Array(0x00...0x1F) + [0x7F, 0x22, 0x5C], as: UTF8.self)

    @Test func integersAreWrittenAsTheirDecimalDigits() throws {
        let values: [Int64] = [0, 9, 10, -1, -10, 99, 100, 4096, 1_000_000_007, Int64.max, Int64.min, Int64.min + 1]
        let (bytes, _) = try Self.capture { json in
            try json.beginArray(compact: true)
            for value in values { try json.int(value) }
            try json.endArray()
        }
        #expect(String(decoding: bytes, as: UTF8.self) == "[" + values.map(String.init).joined(separator: ",") + "]\n")
    }

    @Test func nestedCompactAndIndentedContainersAreValidJSON() throws {
        let (bytes, _) = try Self.capture { json in
            try json.beginObject()
            try json.key("a")
            try json.beginArray()
            try json.int(1)
            try json.beginObject(compact: true)
            try json.key("x")
            try json.beginArray()
            try json.endArray()
            try json.key("y")
            try json.beginObject()
            try json.endObject()
            try json.key("z")
            try json.beginArray()
            try json.int(2)
            try json.beginObject()
            try json.key("deep")
            try json.null()
            try json.endObject()
            try json.endArray()
            try json.endObject()
            try json.beginArray(compact: true)
            try json.endArray()
            try json.beginObject()
            try json.endObject()
            try json.endArray()
            try json.key("b")
            try json.beginObject(compact: true)
            try json.endObject()
            try json.key("c")
            try json.beginObject()
            try json.key("d")
            try json.bool(false)
            try json.key("e")
            try json.double(0.5)
            try json.key("f")
            try json.double(.infinity)
            try json.key("g")
            try json.string("text")
            try json.endObject()
            try json.key("h")
            try json.beginArray(compact: true)
            try json.beginArray()
            try json.beginArray()
            try json.int(-3)
            try json.endArray()
            try json.endArray()
            try json.endArray()
            try json.key("i")
            try json.int(Int64.min)
            try json.endObject()
        }
        let parsed = try OrderedJSON.parse(bytes)
        let expected = try OrderedJSON.parse(
            Array(
                """
                {"a": [1, {"x": [], "y": {}, "z": [2, {"deep": null}]}, [], {}], "b": {}, "c": {"d": false, "e": 0.5, "f": null, "g": "text"},
                 "h": [[[-3]]], "i": -9223372036854775808}
                """.utf8))
        #expect(parsed == expected, "\(String(decoding: bytes, as: UTF8.self))")
        // Foundation agrees it is JSON.
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(bytes)) }
    }

    @Test func compactContainersStayOnOneLine() throws {
        let (bytes, _) = try Self.capture { json in
            try json.beginArray()
            for row in 0..<3 {
                try json.beginObject(compact: true)
                try json.key("a")
                try json.int(row)
                try json.key("b")
                try json.beginArray()
                try json.string("x")
                try json.string("y")
                try json.endArray()
                try json.endObject()
            }
            try json.endArray()
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 5, "one line per row plus the brackets: \(lines)")
        #expect(try OrderedJSON.parse(bytes).items?.count == 3)
    }

    @Test func everyControlByteDELQuoteAndBackslashAreEscaped() throws {
        for compact in [false, true] {
            let (bytes, _) = try Self.capture { json in
                try json.beginObject(compact: compact)
                try json.key(Self.hostile)
                try json.string(Self.hostile)
                try json.key("plain")
                try json.string(utf8: Array(Self.hostile.utf8))
                try json.endObject()
            }
            // Outside the layout's own newlines and spaces, no raw control byte and no raw DEL.
            let body = bytes.dropLast()
            #expect(!body.contains { $0 < 0x20 && $0 != 0x0A }, "raw control byte")
            #expect(!body.contains(0x7F), "raw DEL")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(
                text.contains(#"\u0000"#) && text.contains(#"\u001f"#) && text.contains(#"\u007f"#)
                    && text.contains(#"\\"#) && text.contains(#"\""#))

            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
            #expect(parsed.count == 2)
            #expect(parsed[Self.hostile]?.unicodeScalars.elementsEqual(Self.hostile.unicodeScalars) == true)
            #expect(parsed["plain"]?.unicodeScalars.elementsEqual(Self.hostile.unicodeScalars) == true)
            #expect(try OrderedJSON.parse(bytes)["plain"] == .string(Self.hostile))
        }
    }

    @Test func eachCharacterAloneRoundTrips() throws {
        for byte in Array(UInt8(0x00)...0x1F) + [0x7F, 0x22, 0x5C, 0x2F] {
            let text = "a" + String(UnicodeScalar(byte)) + "b"
            let (bytes, _) = try Self.capture { json in
                try json.beginArray()
                try json.string(text)
                try json.endArray()
            }
            let parsed = try #require(
                try JSONSerialization.jsonObject(with: Data(bytes)) as? [String], "byte 0x\(String(byte, radix: 16))")
            #expect(
                parsed.first?.unicodeScalars.elementsEqual(text.unicodeScalars) == true,
                "byte 0x\(String(byte, radix: 16))")
        }
    }

    @Test func largeDocumentsArriveInSeveralChunksThatJoinToValidJSON() throws {
        let (bytes, chunks) = try Self.capture { json in
            try json.beginArray()
            for i in 0..<60_000 {
                try json.beginObject(compact: true)
                try json.key("index")
                try json.int(i)
                try json.key("name")
                try json.string("file \(i) \"quoted\"\n")
                try json.endObject()
            }
            try json.endArray()
        }
        #expect(chunks > 1, "a \(bytes.count)-byte document should stream in chunks")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
        #expect(rows.count == 60_000)
        #expect(rows.last?["index"] as? Int == 59_999)
        #expect(rows.last?["name"] as? String == "file 59999 \"quoted\"\n")
    }

    /// The one-call forms write exactly what a key followed by its value (or begin…end) writes, in indented and
    /// compact containers: nil is null, an absent `ifPresent` member leaves no trace, arrays keep the layout.
    @Test func oneCallFieldsWriteWhatKeyAndValueWrite() throws {
        let missing: Int64? = nil
        for compact in [false, true] {
            let (fields, _) = try Self.capture { json in
                try json.object(compact: compact) {
                    try json.field(Self.hostile, "value \(Self.hostile)")
                    try json.field("b", 7)
                    try json.field("c", Int64.min)
                    try json.field("d", ifPresent: missing)
                    try json.field("e", missing)
                    try json.field("f", ifPresent: 0.5)
                    try json.field("g", [true, false])
                    try json.array("h", compact: true) { try json.string("x") }
                    try json.object("i") { try json.field("j", [String]()) }
                    try json.field("k") { try json.null() }
                }
            }
            let (pairs, _) = try Self.capture { json in
                try json.beginObject(compact: compact)
                try json.key(Self.hostile)
                try json.string("value \(Self.hostile)")
                try json.key("b")
                try json.int(7)
                try json.key("c")
                try json.int(Int64.min)
                try json.key("e")
                try json.null()
                try json.key("f")
                try json.double(0.5)
                try json.key("g")
                try json.beginArray()
                try json.bool(true)
                try json.bool(false)
                try json.endArray()
                try json.key("h")
                try json.beginArray(compact: true)
                try json.string("x")
                try json.endArray()
                try json.key("i")
                try json.beginObject()
                try json.key("j")
                try json.beginArray()
                try json.endArray()
                try json.endObject()
                try json.key("k")
                try json.null()
                try json.endObject()
            }
            #expect(String(decoding: fields, as: UTF8.self) == String(decoding: pairs, as: UTF8.self))
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(fields)) as? [String: Any])
            #expect(parsed["d"] == nil && parsed["e"] is NSNull && parsed.count == 9)
        }
    }
}

/// A member known later (`field(_:later:_:)`): the sink gets the bytes of the same document written in one go,
/// whether the value was ready at once, became ready while later chunks were written, or only at `finish`; and
/// nothing after the member reaches the sink before it.
@Suite struct DeferredMemberTests {
    /// A nested object with a member known later between others, and enough rows after it to fill several chunks.
    static func document(_ json: JSONStream, later: (JSONStream) throws -> Void) throws {
        try json.object {
            try json.field("a", "first")
            try json.object("b") {
                try json.field("c", 1)
                try later(json)
                try json.array("e") {
                    for row in 0..<200_000 { try json.object(compact: true) { try json.field("n", row) } }
                }
            }
            try json.field("z", true)
        }
    }

    static func value(_ json: JSONStream) throws {
        try json.object {
            try json.array("list") { for word in ["x", JSONStreamTests.hostile] { try json.string(word) } }
        }
    }

    @Test("the member's bytes are those written in place", arguments: ["at once", "while writing", "at the end"])
    func aMemberKnownLaterIsWrittenInPlace(when: String) throws {
        let whole = try JSONStreamTests.capture { json in
            try Self.document(json) { try $0.field("d") { try Self.value(json) } }
        }
        nonisolated(unsafe) var ready = when == "at once"
        nonisolated(unsafe) var received: [UInt8] = []
        nonisolated(unsafe) var sawRowsEarly = false
        let json = JSONStream { chunk in
            received += chunk
            if !ready && String(decoding: received, as: UTF8.self).contains("\"e\"") { sawRowsEarly = true }
        }
        nonisolated(unsafe) var chunksWritten = 0
        try Self.document(json) { json in
            try json.field(
                "d",
                later: {
                    chunksWritten += 1
                    // Ready from the third chunk on ("while writing"), or never until `finish` asks.
                    if when == "while writing" && chunksWritten > 2 { ready = true }
                    return ready
                }
            ) { try Self.value($0) }
        }
        let beforeFinish = received.count
        ready = true
        try json.finish()
        #expect(received == whole.bytes)
        #expect(!sawRowsEarly)
        if when == "at the end" { #expect(beforeFinish < 100) }
        #expect(try JSONSerialization.jsonObject(with: Data(received)) is [String: Any])
    }
}
