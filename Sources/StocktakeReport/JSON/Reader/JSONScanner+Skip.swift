/// Skipping what the mapping does not need (most keys of a row, every metadata plist but one): checked
/// like any other JSON, with a depth limit, so hostile nesting cannot overflow the stack.
extension JSONScanner {
    /// Skips one value of any kind, however nested (up to `maximumDepth`). A loop with its own stack of open
    /// containers, not recursion: the diff reads on worker threads, whose stacks are 512 KB on a Mac.
    mutating func skipValue() throws(JSONReadFailure) {
        var open: [Bool] = []  // true for an object, innermost last
        var first = false
        while true {
            skipWhitespace()
            guard position < count else { throw syntaxError(expected: "a value") }
            switch bytes[position] {
            case JSONByte.openBrace, JSONByte.openBracket:
                guard open.count < Self.maximumDepth else {
                    throw JSONReadFailure.syntax(
                        offset: position,
                        problem: "values nest deeper than \(Self.maximumDepth) levels, more than a report ever holds")
                }
                open.append(bytes[position] == JSONByte.openBrace)
                position += 1
                first = true
            // A string is read as any string is (checked, and decoded only when it holds escapes).
            case JSONByte.quote: _ = try string()
            case JSONByte.minus, JSONByte.zero...UInt8(ascii: "9"): try skipNumber()
            case UInt8(ascii: "t"): try expectLiteral("true")
            case UInt8(ascii: "f"): try expectLiteral("false")
            case UInt8(ascii: "n"): try expectLiteral("null")
            default: throw syntaxError(expected: "a value")
            }
            // Close what ends here; stop at the next member or element, or when the outermost value is done.
            while let isObject = open.last {
                if isObject ? try nextKey(first: &first) != nil : try nextElement(first: &first) { break }
                open.removeLast()
                first = false
            }
            if open.isEmpty { return }
        }
    }

    /// A number by JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func skipNumber() throws(JSONReadFailure) {
        var index = position
        if index < count, bytes[index] == JSONByte.minus { index += 1 }
        guard index < count, bytes[index].isDigit else { throw syntaxError(at: index, expected: "a digit") }
        let digits = index
        while index < count, bytes[index].isDigit { index += 1 }
        if bytes[digits] == JSONByte.zero, index > digits + 1 { throw Self.leadingZero(at: digits + 1) }
        if index < count, bytes[index] == JSONByte.dot {
            index += 1
            guard index < count, bytes[index].isDigit else {
                throw syntaxError(at: index, expected: "a digit after '.'")
            }
            while index < count, bytes[index].isDigit { index += 1 }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == JSONByte.minus { index += 1 }
            guard index < count, bytes[index].isDigit else {
                throw syntaxError(at: index, expected: "a digit in the exponent")
            }
            while index < count, bytes[index].isDigit { index += 1 }
        }
        position = index
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self &- JSONByte.zero < 10 }
}
