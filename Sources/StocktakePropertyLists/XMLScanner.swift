import StocktakeModel

/// A cursor over the little XML property lists use (tags, text, references, CDATA, comments): with no DTD
/// processing at all, nothing can expand, load or reach the network.
struct XMLScanner {
    /// What comes next inside an element.
    enum Item: Equatable {
        case start(name: String, line: Int, selfClosing: Bool)
        case end(name: String, line: Int)
        /// Character data (text or CDATA), entities resolved.
        case text(String, line: Int)
        case endOfDocument
    }

    private let bytes: [UInt8]
    private var index = 0
    /// Offsets of every newline, so an item's line is a binary search, not a count from the start.
    private let newlines: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        newlines = bytes.indices.filter { bytes[$0] == 0x0A }
    }

    /// Line of a byte offset: one more than the newlines before it.
    func line(at offset: Int) -> Int {
        var (low, high) = (0, newlines.count)
        while low < high {
            let middle = (low + high) / 2
            if newlines[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return 1 + low
    }

    var line: Int { line(at: index) }

    /// The next tag or run of character data, skipping comments and processing instructions.
    mutating func next() throws(PropertyListError) -> Item {
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { return try text() }
            if try skipCommentOrInstruction() {
                continue
            } else if starts(with: "<![CDATA[") {
                let start = index
                index += 9
                guard let end = find("]]>") else { throw unterminated("<![CDATA[", at: start) }
                let content = String(decoding: bytes[index..<end], as: UTF8.self)
                index = end + 3
                try checkCharacters(content, at: start)
                return .text(content, line: line(at: start))
            } else if starts(with: "<!") {
                throw .xml("line \(line): unexpected markup \(quoted(from: index)) inside the document")
            } else if starts(with: "</") {
                let start = index
                index += 2
                let name = try self.name()
                skipSpace()
                guard peek == UInt8(ascii: ">") else { throw expected("'>' to close </\(name)>", at: index) }
                index += 1
                return .end(name: name, line: line(at: start))
            } else {
                return try startTag()
            }
        }
        return .endOfDocument
    }

    /// Skips the prolog, a DOCTYPE's internal subset unread.
    mutating func skipProlog() throws(PropertyListError) {
        try skipMisc()
        while starts(with: "<!DOCTYPE") {
            try skipDoctype()
            try skipMisc()
        }
    }

    mutating func expectEnd() throws(PropertyListError) {
        try skipMisc()
        guard index >= bytes.count else {
            throw .xml("line \(line): content after the root element: \(quoted(from: index))")
        }
    }

    private mutating func skipMisc() throws(PropertyListError) {
        repeat { skipSpace() } while try skipCommentOrInstruction()
    }

    /// Skips one `<?…?>` or `<!--…-->` at the cursor; false when neither starts there.
    private mutating func skipCommentOrInstruction() throws(PropertyListError) -> Bool {
        if starts(with: "<?") {
            try skip(past: "?>", opened: "<?")
        } else if starts(with: "<!--") {
            try skip(past: "-->", opened: "<!--")
        } else {
            return false
        }
        return true
    }

    // MARK: Pieces

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func startTag() throws(PropertyListError) -> Item {
        let start = index
        index += 1
        let name = try self.name()
        while true {
            let hadSpace = skipSpace()
            guard let byte = peek else { throw unterminated("<\(name)", at: start) }
            if byte == UInt8(ascii: ">") {
                index += 1
                return .start(name: name, line: line(at: start), selfClosing: false)
            }
            if byte == UInt8(ascii: "/") {
                index += 1
                guard peek == UInt8(ascii: ">") else { throw expected("'>' after '/' in <\(name)/>", at: index) }
                index += 1
                return .start(name: name, line: line(at: start), selfClosing: true)
            }
            guard hadSpace else { throw expected("a space before the attribute in <\(name)>", at: index) }
            try skipAttribute(in: name)
        }
    }

    /// `name = "value"` or `name='value'`; plist attributes (`version`) carry nothing we use.
    private mutating func skipAttribute(in element: String) throws(PropertyListError) {
        _ = try self.name()
        skipSpace()
        guard peek == UInt8(ascii: "=") else {
            throw expected("'=' after an attribute name in <\(element)>", at: index)
        }
        index += 1
        skipSpace()
        guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw expected("a quoted attribute value in <\(element)>", at: index)
        }
        let start = index
        index += 1
        while let byte = peek, byte != quote {
            guard byte != UInt8(ascii: "<") else {
                throw .xml("line \(line): '<' inside an attribute value of <\(element)>")
            }
            index += 1
        }
        guard peek == quote else { throw unterminated("an attribute value of <\(element)>", at: start) }
        index += 1
    }

    private mutating func name() throws(PropertyListError) -> String {
        let start = index
        while let byte = peek, !isSpace(byte), byte != UInt8(ascii: ">"), byte != UInt8(ascii: "/"),
            byte != UInt8(ascii: "="), byte != UInt8(ascii: "<")
        {
            index += 1
        }
        guard index > start, !isNameStartInvalid(bytes[start]) else {
            throw expected("an element or attribute name", at: start)
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func isNameStartInvalid(_ byte: UInt8) -> Bool { "0123456789-.\"'&".utf8.contains(byte) }

    /// Character data up to the next `<`, with entity and character references resolved.
    private mutating func text() throws(PropertyListError) -> Item {
        let start = index
        var text: [UInt8] = []
        while let byte = peek, byte != UInt8(ascii: "<") {
            if byte == UInt8(ascii: "&") {
                text.append(contentsOf: try reference())
            } else {
                text.append(byte)
                index += 1
            }
        }
        let string = String(decoding: text, as: UTF8.self)
        try checkCharacters(string, at: start)
        return .text(string, line: line(at: start))
    }

    /// `&lt;` and its four siblings, `&#NN;` and `&#xHH;`. Any other entity is undefined: plists declare none.
    private mutating func reference() throws(PropertyListError) -> [UInt8] {
        let start = index
        guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw .xml("line \(line): '&' that starts no reference (write &amp;)")
        }
        let body = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
        index = semicolon + 1
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            guard body.hasPrefix("#") else {
                throw .xml(
                    "line \(line(at: start)): entity &\(body); is not defined; property lists use only &lt; &gt; &amp; &quot; &apos;"
                )
            }
            let digits = body.dropFirst()
            let isHex = digits.hasPrefix("x")
            guard let value = UInt32(isHex ? digits.dropFirst() : digits, radix: isHex ? 16 : 10),
                let scalar = Unicode.Scalar(value), isXMLCharacter(scalar)
            else { throw .xml("line \(line(at: start)): &\(body); is not a valid character reference") }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// XML 1.0 allows tab, newline, carriage return and everything from U+0020 but U+FFFE and U+FFFF.
    private func checkCharacters(_ text: String, at offset: Int) throws(PropertyListError) {
        if let bad = text.unicodeScalars.first(where: { !isXMLCharacter($0) }) {
            throw .xml(
                "line \(line(at: offset)): character U+\(String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4)) is not allowed in XML"
            )
        }
    }

    private func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x20...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Passes a DOCTYPE, brackets and quotes included; entity declarations were refused before parsing.
    private mutating func skipDoctype() throws(PropertyListError) {
        let start = index
        var quote: UInt8?
        var inSubset = false
        while let byte = peek {
            if quote == nil, inSubset, starts(with: "<!--") {
                try skip(past: "-->", opened: "<!--")
                continue
            }
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if byte == UInt8(ascii: ">"), !inSubset {
                return
            }
        }
        throw unterminated("<!DOCTYPE", at: start)
    }

    private mutating func skip(past terminator: String, opened: String) throws(PropertyListError) {
        let start = index
        guard let end = find(terminator) else { throw unterminated(opened, at: start) }
        index = end + terminator.utf8.count
    }

    @discardableResult private mutating func skipSpace() -> Bool {
        let start = index
        while let byte = peek, isSpace(byte) { index += 1 }
        return index > start
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private func starts(with text: StaticString) -> Bool {
        text.withUTF8Buffer { pattern in
            index + pattern.count <= bytes.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
        }
    }

    private func find(_ pattern: String) -> Int? {
        ByteSearch.firstIndex(of: pattern.utf8, in: bytes[...], from: index)
    }

    private func quoted(from offset: Int) -> String {
        "\"" + String(decoding: bytes[offset...].prefix(20), as: UTF8.self) + "\""
    }

    private func expected(_ what: String, at offset: Int) -> PropertyListError {
        .xml(
            "line \(line(at: offset)): expected \(what)"
                + (offset < bytes.count ? ", found \(quoted(from: offset))" : ", found the end of the document"))
    }

    private func unterminated(_ what: String, at offset: Int) -> PropertyListError {
        .xml("line \(line(at: offset)): \(what) is never closed: the document ends first")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
