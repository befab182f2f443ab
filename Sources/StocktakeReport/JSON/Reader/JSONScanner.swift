import StocktakeModel

/// A pull parser over the bytes of one JSON document (RFC 8259): the caller asks for the value it expects
/// next (an object, a key, an integer, a string) and skips what it does not need. No value is built that
/// was not asked for, so a million rows cost no objects. Strings come back as bytes, exactly as decoded
/// (their UTF-8 is not checked: bytes are kept as they are); a string without escapes is a view of the
/// input itself, which the caller keeps alive (`ReportBytes`).
struct JSONScanner: ~Copyable {
    let bytes: UnsafePointer<UInt8>
    let count: Int
    var position = 0
    /// Where the last key read starts (its opening quote), to name it in a message.
    private(set) var lastKeyOffset = 0
    /// Strings that held escapes, decoded; reused, so a view of it lasts until the next string is read.
    private var scratch: UnsafeMutablePointer<UInt8>
    private var scratchCapacity = 256
    /// Gives back the mapped pages already read, when the bytes are a mapping.
    private var pages: PageRelease?

    /// Deeper nesting is refused: hostile input must not exhaust anything.
    static let maximumDepth = 512

    init(bytes: UnsafePointer<UInt8>, count: Int, pages: PageRelease? = nil) {
        (self.bytes, self.count, self.pages) = (bytes, count, pages)
        scratch = .allocate(capacity: scratchCapacity)
    }

    deinit { scratch.deallocate() }

    // MARK: - Structure

    @inline(__always) mutating func skipWhitespace() {
        while position < count {
            let byte = bytes[position]
            guard byte <= 0x20, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    /// The kind of the value that starts here (after whitespace), without consuming it.
    mutating func peek() throws(JSONReadFailure) -> JSONValueKind {
        skipWhitespace()
        guard position < count, let kind = JSONValueKind(bytes[position]) else {
            throw syntaxError(expected: "a value")
        }
        return kind
    }

    mutating func beginObject() throws(JSONReadFailure) {
        skipWhitespace()
        guard position < count, bytes[position] == JSONByte.openBrace else { throw typeMismatch(expected: "an object") }
        position += 1
    }

    /// The next key of the object being read (its `:` consumed), or nil at its closing brace.
    /// `first` is true before the first member; the scanner clears it.
    @inline(__always) mutating func nextKey(first: inout Bool) throws(JSONReadFailure) -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard position < count else { throw syntaxError(expected: first ? "a key or '}'" : "',' or '}'") }
        if bytes[position] == JSONByte.closeBrace {
            position += 1
            return nil
        }
        if !first {
            guard bytes[position] == JSONByte.comma else { throw syntaxError(expected: "',' or '}'") }
            position += 1
            skipWhitespace()
        }
        first = false
        guard position < count, bytes[position] == JSONByte.quote else {
            throw syntaxError(expected: "a key in double quotes")
        }
        lastKeyOffset = position
        let key = try string()
        skipWhitespace()
        guard position < count, bytes[position] == JSONByte.colon else {
            throw syntaxError(expected: "':' after the key")
        }
        position += 1
        return key
    }

    mutating func beginArray() throws(JSONReadFailure) {
        skipWhitespace()
        guard position < count, bytes[position] == JSONByte.openBracket else {
            throw typeMismatch(expected: "an array")
        }
        position += 1
    }

    /// True when another element follows (its `,` consumed); false at the closing bracket.
    @inline(__always) mutating func nextElement(first: inout Bool) throws(JSONReadFailure) -> Bool {
        skipWhitespace()
        guard position < count else { throw syntaxError(expected: first ? "a value or ']'" : "',' or ']'") }
        if bytes[position] == JSONByte.closeBracket {
            position += 1
            return false
        }
        if !first {
            guard bytes[position] == JSONByte.comma else { throw syntaxError(expected: "',' or ']'") }
            position += 1
        }
        first = false
        return true
    }

    /// After the document's value: only whitespace may follow.
    mutating func expectEnd() throws(JSONReadFailure) {
        skipWhitespace()
        guard position == count else { throw syntaxError(expected: "the end of the document after its value") }
    }

    /// Called between rows: what lies before the current position is not needed again (strings that
    /// were kept have been copied), so its pages can go.
    mutating func releaseConsumed() { pages?.release(before: position) }

    /// The last key read, decoded again (its view may have been overwritten since), for messages.
    mutating func lastKey() -> String {
        let saved = position
        defer { position = saved }
        position = lastKeyOffset
        guard let key = try? string() else { return "?" }
        return String(decoding: key, as: UTF8.self)
    }

    // MARK: - Scalars

    /// A string's decoded bytes, valid until the next string is read.
    @inline(__always) mutating func string() throws(JSONReadFailure) -> UnsafeBufferPointer<UInt8> {
        skipWhitespace()
        guard position < count, bytes[position] == JSONByte.quote else { throw typeMismatch(expected: "a string") }
        let start = position + 1
        let end = plainRunEnd(from: start)
        guard end < count, bytes[end] == JSONByte.quote else { return try decodeString(from: start, plainUntil: end) }
        position = end + 1
        return UnsafeBufferPointer(start: bytes + start, count: end - start)
    }

    /// Where the bytes a string holds as they are end: at a quote, a backslash, a control byte or the end.
    @inline(__always) private func plainRunEnd(from start: Int) -> Int {
        var end = start
        while end < count, bytes[end] != JSONByte.quote, bytes[end] != JSONByte.backslash, bytes[end] >= 0x20 {
            end += 1
        }
        return end
    }

    /// A string as Swift text (for the few strings that are not paths of rows).
    mutating func text() throws(JSONReadFailure) -> String { String(decoding: try string(), as: UTF8.self) }

    /// A JSON integer that fits in 64 bits. Fractions, exponents and larger numbers are mismatches that name
    /// the number, so the message can say what was found.
    @inline(__always) mutating func integer() throws(JSONReadFailure) -> Int64 {
        skipWhitespace()
        let start = position
        var index = position
        let negative = index < count && bytes[index] == JSONByte.minus
        if negative { index += 1 }
        guard index < count, bytes[index] &- JSONByte.zero < 10 else {
            if negative { throw syntaxError(at: index, expected: "a digit after '-'") }
            throw typeMismatch(expected: "an integer")
        }
        // Accumulate downwards so that Int64.min fits.
        let digits = index
        var value: Int64 = 0
        var overflow = false
        while index < count, bytes[index] &- JSONByte.zero < 10 {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.subtractingReportingOverflow(Int64(bytes[index] &- JSONByte.zero))
            (value, overflow) = (next, overflow || o1 || o2)
            index += 1
        }
        if bytes[digits] == JSONByte.zero, index > digits + 1 { throw Self.leadingZero(at: digits + 1) }
        if index < count, bytes[index] == JSONByte.dot || bytes[index] | 0x20 == UInt8(ascii: "e") {
            position = start
            try skipNumber()
            throw JSONReadFailure.mismatch(offset: start, expected: "an integer", found: literal(from: start))
        }
        if !negative {
            let (positive, o3) = Int64(0).subtractingReportingOverflow(value)
            overflow = overflow || o3
            value = positive
        }
        position = index
        if overflow {
            throw JSONReadFailure.mismatch(
                offset: start, expected: "an integer of at most 64 bits", found: literal(from: start))
        }
        return value
    }

    /// A size or a count: an integer that is not negative. A negative one would make every delta and
    /// gate on it meaningless (and `Int64.min` has no magnitude to subtract), so it is refused by `path`.
    @inline(__always) mutating func size(at path: @autoclosure () -> String) throws(JSONReadFailure) -> Int64 {
        let value = try integer()
        guard value >= 0 else {
            throw JSONReadFailure.schema(path: path(), problem: "is \(value); sizes and counts are never negative")
        }
        return value
    }

    mutating func bool() throws(JSONReadFailure) -> Bool {
        skipWhitespace()
        guard position < count, bytes[position] == UInt8(ascii: "t") || bytes[position] == UInt8(ascii: "f") else {
            throw typeMismatch(expected: "true or false")
        }
        let value = bytes[position] == UInt8(ascii: "t")
        try expectLiteral(value ? "true" : "false")
        return value
    }

    /// Consumes `null` when it is next.
    mutating func null() throws(JSONReadFailure) -> Bool {
        skipWhitespace()
        guard position < count, bytes[position] == UInt8(ascii: "n") else { return false }
        try expectLiteral("null")
        return true
    }

    mutating func expectLiteral(_ word: StaticString) throws(JSONReadFailure) {
        let length = word.utf8CodeUnitCount
        for offset in 0..<length where position + offset >= count || bytes[position + offset] != word.utf8Start[offset]
        {
            throw syntaxError(at: position + offset, expected: "'\(word)'")
        }
        position += length
    }

    // MARK: - Errors

    /// Nothing valid here: names what was expected and what is there (or that the file ended).
    func syntaxError(at offset: Int? = nil, expected: String) -> JSONReadFailure {
        let offset = offset ?? position
        guard offset < count else {
            return .syntax(offset: offset, problem: "the file ends here (truncated?); expected \(expected)")
        }
        return .syntax(offset: offset, problem: "expected \(expected), found \(Self.describe(bytes[offset]))")
    }

    /// A valid value of another type is a mismatch (the mapping names the key); anything else is a syntax error.
    func typeMismatch(expected: String) -> JSONReadFailure {
        guard position < count, let kind = JSONValueKind(bytes[position]) else {
            return syntaxError(expected: "a value")
        }
        return .mismatch(offset: position, expected: expected, found: kind.description)
    }

    static func leadingZero(at offset: Int) -> JSONReadFailure {
        .syntax(offset: offset, problem: "a number may not start with 0 followed by a digit")
    }

    /// Up to 40 bytes of a number as written, for a message.
    func literal(from start: Int) -> String {
        var end = start
        while end < count, end - start < 40, bytes[end] > 0x20, bytes[end] != JSONByte.comma,
            bytes[end] != JSONByte.closeBrace, bytes[end] != JSONByte.closeBracket
        {
            end += 1
        }
        return String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
    }

    static func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(Hex.uppercase(byte))"
    }

    // MARK: - Escapes

    /// The slow path of `string()`: copies each run of plain bytes at once, decoding the escapes between them.
    private mutating func decodeString(from start: Int, plainUntil plainEnd: Int) throws(JSONReadFailure)
        -> UnsafeBufferPointer<UInt8>
    {
        var length = 0
        var (runStart, index) = (start, plainEnd)
        while true {
            appendToScratch(bytes + runStart, index - runStart, at: &length)
            guard index < count else { throw syntaxError(at: index, expected: "'\"' to close the string") }
            let byte = bytes[index]
            if byte == JSONByte.quote {
                position = index + 1
                return UnsafeBufferPointer(start: scratch, count: length)
            }
            if byte < 0x20 {
                throw JSONReadFailure.syntax(
                    offset: index,
                    problem: "\(Self.describe(byte)) inside a string; JSON needs control characters escaped")
            }
            guard index + 1 < count else { throw syntaxError(at: index + 1, expected: "an escape after '\\'") }
            let letter = bytes[index + 1]
            if letter == UInt8(ascii: "u") {
                let (scalar, next) = try unicodeEscape(at: index)
                UTF8.encode(scalar) { appendToScratch($0, at: &length) }
                index = next
            } else if let escaped = Self.escapes[letter] {
                appendToScratch(escaped, at: &length)
                index += 2
            } else {
                throw JSONReadFailure.syntax(
                    offset: index + 1, problem: "unknown escape '\\\(Character(Unicode.Scalar(letter)))' in a string")
            }
            runStart = index
            index = plainRunEnd(from: index)
        }
    }

    /// The one-letter escapes, by their letter.
    private static let escapes: [UInt8: UInt8] = [
        JSONByte.quote: JSONByte.quote, JSONByte.backslash: JSONByte.backslash, UInt8(ascii: "/"): UInt8(ascii: "/"),
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D,
        UInt8(ascii: "t"): 0x09,
    ]

    /// `\uXXXX` at `index`, joined with a following low surrogate when it is a high one. A surrogate
    /// without its partner cannot be UTF-8: it becomes U+FFFD, as decoders do.
    private func unicodeEscape(at index: Int) throws(JSONReadFailure) -> (Unicode.Scalar, next: Int) {
        let unit = try hexQuad(at: index + 2)
        var next = index + 6
        if (0xD800..<0xDC00).contains(unit), next + 1 < count, bytes[next] == JSONByte.backslash,
            bytes[next + 1] == UInt8(ascii: "u")
        {
            let low = try hexQuad(at: next + 2)
            if (0xDC00..<0xE000).contains(low) {
                next += 6
                let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                return (Unicode.Scalar(value) ?? "\u{FFFD}", next)
            }
        }
        return (Unicode.Scalar(unit) ?? "\u{FFFD}", next)
    }

    private func hexQuad(at index: Int) throws(JSONReadFailure) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard index + offset < count, let digit = Hex.value(of: bytes[index + offset]) else {
                throw syntaxError(at: index + offset, expected: "four hex digits after '\\u'")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func appendToScratch(_ byte: UInt8, at filled: inout Int) {
        reserveScratch(filled + 1, keeping: filled)
        scratch[filled] = byte
        filled += 1
    }

    private mutating func appendToScratch(_ source: UnsafePointer<UInt8>, _ length: Int, at filled: inout Int) {
        reserveScratch(filled + length, keeping: filled)
        (scratch + filled).update(from: source, count: length)
        filled += length
    }

    private mutating func reserveScratch(_ needed: Int, keeping filled: Int) {
        guard needed > scratchCapacity else { return }
        var capacity = scratchCapacity
        while capacity < needed { capacity *= 2 }
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        larger.update(from: scratch, count: filled)
        scratch.deallocate()
        scratch = larger
        scratchCapacity = capacity
    }
}

/// What a JSON value is, from its first byte; named as messages name it.
enum JSONValueKind: String, CustomStringConvertible {
    case object = "an object"
    case array = "an array"
    case string = "a string"
    case number = "a number"
    case bool = "a boolean"
    case null

    init?(_ byte: UInt8) {
        switch byte {
        case JSONByte.openBrace: self = .object
        case JSONByte.openBracket: self = .array
        case JSONByte.quote: self = .string
        case JSONByte.minus, UInt8(ascii: "0")...UInt8(ascii: "9"): self = .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .bool
        case UInt8(ascii: "n"): self = .null
        default: return nil
        }
    }

    var description: String { rawValue }
}

/// The bytes JSON's grammar turns on.
enum JSONByte {
    static let quote: UInt8 = 0x22  // "
    static let backslash: UInt8 = 0x5C
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let comma: UInt8 = 0x2C
    static let colon: UInt8 = 0x3A
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
}
