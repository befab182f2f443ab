/// Skipping what the mapping does not need (most keys of a row, every metadata plist but one): checked
/// like any other JSON, but iteratively, with a depth limit, so hostile nesting cannot overflow the stack.
extension JSONScanner {
    /// Skips one value of any kind, however nested (up to `maximumDepth`).
    mutating func skipValue() throws(JSONReadFailure) {
        var depth = 0
        value: while true {
            skipWhitespace()
            guard position < count else { throw syntaxError(expected: "a value") }
            let byte = bytes[position]
            switch byte {
            case JSONByte.openBrace, JSONByte.openBracket:
                guard depth < Self.maximumDepth else {
                    throw JSONReadFailure.syntax(
                        offset: position,
                        problem: "values nest deeper than \(Self.maximumDepth) levels, more than a report ever holds")
                }
                let isObject = byte == JSONByte.openBrace
                setContainer(at: depth, isObject: isObject)
                depth += 1
                position += 1
                skipWhitespace()
                if position < count, bytes[position] == (isObject ? JSONByte.closeBrace : JSONByte.closeBracket) {
                    position += 1
                    depth -= 1
                } else {
                    if isObject { try skipKey() }
                    continue value
                }
            // A string is read as any string is (checked, and decoded only when it holds escapes).
            case JSONByte.quote: _ = try string()
            case JSONByte.minus, JSONByte.zero...UInt8(ascii: "9"): try skipNumber()
            case UInt8(ascii: "t"): try expectLiteral("true")
            case UInt8(ascii: "f"): try expectLiteral("false")
            case UInt8(ascii: "n"): try expectLiteral("null")
            default: throw syntaxError(expected: "a value")
            }
            // After a value: close what ends here, or go on to the next member or element.
            while depth > 0 {
                skipWhitespace()
                let isObject = container(at: depth - 1)
                guard position < count else { throw syntaxError(expected: isObject ? "',' or '}'" : "',' or ']'") }
                let next = bytes[position]
                if next == JSONByte.comma {
                    position += 1
                    if isObject { try skipKey() }
                    continue value
                }
                guard next == (isObject ? JSONByte.closeBrace : JSONByte.closeBracket) else {
                    throw syntaxError(expected: isObject ? "',' or '}'" : "',' or ']'")
                }
                position += 1
                depth -= 1
            }
            return
        }
    }

    /// A key and its colon.
    private mutating func skipKey() throws(JSONReadFailure) {
        skipWhitespace()
        guard position < count, bytes[position] == JSONByte.quote else {
            throw syntaxError(expected: "a key in double quotes")
        }
        _ = try string()
        skipWhitespace()
        guard position < count, bytes[position] == JSONByte.colon else {
            throw syntaxError(expected: "':' after the key")
        }
        position += 1
    }

    /// A number by JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func skipNumber() throws(JSONReadFailure) {
        var index = position
        if index < count, bytes[index] == JSONByte.minus { index += 1 }
        guard index < count, bytes[index].isDigit else { throw syntaxError(at: index, expected: "a digit") }
        if bytes[index] == JSONByte.zero {
            index += 1
            if index < count, bytes[index].isDigit { throw Self.leadingZero(at: index) }
        } else {
            while index < count, bytes[index].isDigit { index += 1 }
        }
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

    private mutating func setContainer(at depth: Int, isObject: Bool) {
        let bit: UInt64 = 1 << UInt64(depth & 63)
        if isObject { containerKinds[depth >> 6] |= bit } else { containerKinds[depth >> 6] &= ~bit }
    }

    private func container(at depth: Int) -> Bool { containerKinds[depth >> 6] & (1 << UInt64(depth & 63)) != 0 }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self &- JSONByte.zero < 10 }
}
