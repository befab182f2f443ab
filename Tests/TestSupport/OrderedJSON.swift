import StocktakeModel

/// A strict JSON reader (RFC 8259) that keeps what `JSONSerialization` throws away: the order of each
/// object's keys and the literal text of each number. Report tests use it to check sorted keys and
/// integer byte counts; anything that is not valid JSON is an error, not a best guess.
package indirect enum OrderedJSON: Equatable, CustomStringConvertible {
    case object([(key: String, value: OrderedJSON)])
    case array([OrderedJSON])
    case string(String)
    /// The number exactly as written, e.g. `10000000`, `0.25`, `1e-07`.
    case number(String)
    case bool(Bool)
    case null

    package struct SyntaxError: Error, CustomStringConvertible {
        package let offset: Int
        package let message: String
        package var description: String { "invalid JSON at byte \(offset): \(message)" }
    }

    package static func parse(_ bytes: [UInt8]) throws -> OrderedJSON {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.offset == bytes.count else { throw reader.error("text after the document") }
        return value
    }

    package static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    package var description: String {
        switch self {
        case .object(let pairs):
            "{" + pairs.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "}"
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .string(let text): text.debugDescription
        case .number(let text): text
        case .bool(let flag): String(flag)
        case .null: "null"
        }
    }

    // MARK: Navigation

    package subscript(key: String) -> OrderedJSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }?.value
    }

    /// An object's keys, sorted (nil: not an object).
    package var keys: [String]? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.map(\.key).sorted()
    }

    package var items: [OrderedJSON]? {
        if case .array(let items) = self { return items }
        return nil
    }

    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value when it is written as an integer literal (no fraction, no exponent).
    package var integerValue: Int64? {
        guard case .number(let text) = self, !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
            return nil
        }
        return Int64(text)
    }

    /// Every object in the document, depth first, with a readable location, for whole-document checks.
    package func forEachObject(at location: String = "$", _ body: (String, [(key: String, value: OrderedJSON)]) -> Void)
    {
        switch self {
        case .object(let pairs):
            body(location, pairs)
            for pair in pairs { pair.value.forEachObject(at: location + "." + pair.key, body) }
        case .array(let items):
            for (index, item) in items.enumerated() { item.forEachObject(at: location + "[\(index)]", body) }
        default: break
        }
    }

    /// Every value stored under one of `keys` anywhere in the document, with its location.
    package func values(forKeys keys: Set<String>) -> [(location: String, value: OrderedJSON)] {
        var found: [(String, OrderedJSON)] = []
        forEachObject { location, pairs in
            for pair in pairs where keys.contains(pair.key) { found.append((location + "." + pair.key, pair.value)) }
        }
        return found
    }

    // MARK: Reading

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        func error(_ message: String) -> SyntaxError { SyntaxError(offset: offset, message: message) }

        mutating func skipWhitespace() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        }

        mutating func expect(_ literal: String) throws {
            let expected = Array(literal.utf8)
            guard bytes.count - offset >= expected.count,
                bytes[offset..<offset + expected.count].elementsEqual(expected)
            else {
                throw error("expected \(literal)")
            }
            offset += expected.count
        }

        mutating func value(depth: Int) throws -> OrderedJSON {
            guard depth < 512 else { throw error("nested too deeply") }
            guard offset < bytes.count else { throw error("unexpected end") }
            switch bytes[offset] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default: return .number(try number())
            }
        }

        mutating func object(depth: Int) throws -> OrderedJSON {
            offset += 1
            var pairs: [(key: String, value: OrderedJSON)] = []
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(pairs)
            }
            while true {
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipWhitespace()
                try expect(":")
                skipWhitespace()
                pairs.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard offset < bytes.count else { throw error("unterminated object") }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                try expect("}")
                return .object(pairs)
            }
        }

        mutating func array(depth: Int) throws -> OrderedJSON {
            offset += 1
            var items: [OrderedJSON] = []
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard offset < bytes.count else { throw error("unterminated array") }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                try expect("]")
                return .array(items)
            }
        }

        mutating func string() throws -> String {
            offset += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []  // unescaped UTF-8 run, validated when flushed
            func flush() throws {
                guard !raw.isEmpty else { return }
                guard let text = PathText.text(validatingUTF8: raw) else { throw error("string is not UTF-8") }
                scalars.append(contentsOf: text.unicodeScalars)
                raw.removeAll()
            }
            while true {
                guard offset < bytes.count else { throw error("unterminated string") }
                let byte = bytes[offset]
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    try flush()
                    return String(scalars)
                case 0..<0x20:
                    throw error("raw control byte 0x\(String(byte, radix: 16)) inside a string")
                case UInt8(ascii: "\\"):
                    try flush()
                    guard offset < bytes.count else { throw error("unterminated escape") }
                    let escape = bytes[offset]
                    offset += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var unit = try hex4()
                        if (0xD800..<0xDC00).contains(unit) {
                            try expect("\\u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(unit) else { throw error("unpaired surrogate") }
                        scalars.append(scalar)
                    default: throw error("unknown escape")
                    }
                default:
                    raw.append(byte)
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard bytes.count - offset >= 4 else { throw error("short \\u escape") }
            var value: UInt32 = 0
            for byte in bytes[offset..<offset + 4] {
                guard let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else { throw error("bad \\u escape") }
                value = value << 4 | digit
            }
            offset += 4
            return value
        }

        mutating func number() throws -> String {
            let start = offset
            func digits() -> Int {
                let from = offset
                while offset < bytes.count, (0x30...0x39).contains(bytes[offset]) { offset += 1 }
                return offset - from
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            let leadingZero = offset < bytes.count && bytes[offset] == 0x30
            let integerDigits = digits()
            guard integerDigits > 0 else { throw error("expected a value") }
            guard !(leadingZero && integerDigits > 1) else { throw error("leading zero") }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                guard digits() > 0 else { throw error("no digits after the decimal point") }
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
                offset += 1
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                    offset += 1
                }
                guard digits() > 0 else { throw error("no digits in the exponent") }
            }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }
    }
}

extension String {
    /// Code-point order, the order `sort_keys` (Python), jq and the report contract use. Swift's own `<`
    /// compares canonically equivalent strings as equal, so it cannot be the reference here.
    package func precedesByCodePoints(_ other: String) -> Bool {
        unicodeScalars.lazy.map(\.value).lexicographicallyPrecedes(other.unicodeScalars.lazy.map(\.value))
    }
}
