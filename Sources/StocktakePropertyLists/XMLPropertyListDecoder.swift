import StocktakeModel

/// Decodes an XML property list with a bounded parser of our own (the same on Linux and macOS), refusing anything
/// the plist DTD does not allow; a document that declares entities is refused outright (billion laughs).
struct XMLPropertyListDecoder {
    private var scanner: XMLScanner
    private var valueCount = 0
    private let meter: ContentMeter?

    static func parse(_ bytes: [UInt8], meter: ContentMeter? = nil) throws(PropertyListError) -> PropertyListValue {
        guard !bytes.isEmpty else { throw .xml("the document is empty") }
        let utf8 = try XMLTextEncoding.utf8(bytes)
        if ByteSearch.contains(Array("<!ENTITY".utf8), in: utf8[...]) {
            throw .xml(
                "the document declares entities (<!ENTITY); property lists never need them, and they can expand without bound"
            )
        }
        var decoder = XMLPropertyListDecoder(scanner: XMLScanner(utf8), meter: meter)
        return try decoder.document()
    }

    private mutating func document() throws(PropertyListError) -> PropertyListValue {
        try scanner.skipProlog()
        let first = try scanner.next()
        guard case .start(let name, let line, let selfClosing) = first else {
            if case .text(_, let line) = first { throw .xml("line \(line): text where the root element should start") }
            throw .xml("the document has no root element")
        }
        let root: PropertyListValue
        if name == "plist" {
            let values = selfClosing ? [] : try children(of: "plist", line: line, depth: 0)
            guard values.count == 1 else {
                throw .xml("<plist> at line \(line) holds \(values.count) values; expected exactly one")
            }
            root = values[0]
        } else {
            root = try value(name, line: line, selfClosing: selfClosing, depth: 0)
        }
        try scanner.expectEnd()
        return root
    }

    private mutating func value(_ element: String, line: Int, selfClosing: Bool, depth: Int) throws(PropertyListError)
        -> PropertyListValue
    {
        valueCount += 1
        guard valueCount <= PropertyListLimits.maxValues else {
            throw .xml("line \(line): more than \(PropertyListLimits.maxValues) values")
        }
        if let meter, !meter.charge(objects: 1) {
            throw .xml("line \(line): \(meter.stopped ?? "a decoding limit was reached")")
        }
        func content() throws(PropertyListError) -> String {
            try text(of: element, line: line, selfClosing: selfClosing)
        }
        switch element {
        case "dict":
            let depth = try deeper(depth, line)
            return .dictionary(selfClosing ? [:] : try dictionary(line: line, depth: depth))
        case "array":
            let depth = try deeper(depth, line)
            return .array(selfClosing ? [] : try children(of: "array", line: line, depth: depth))
        case "string": return .string(try content())
        case "integer": return .integer(try integer(try content().trimmingWhitespace(), line: line))
        case "real":
            let text = try content().trimmingWhitespace()
            guard let real = Double(text) else {
                throw .xml("line \(line): <real> holds \"\(text.prefix(40))\", which is not a number")
            }
            return .real(real)
        case "true", "false":
            guard try content().trimmingWhitespace().isEmpty else {
                throw .xml("line \(line): <\(element)/> must be empty")
            }
            return .bool(element == "true")
        case "date":
            let text = try content().trimmingWhitespace()
            guard let seconds = PropertyListText.secondsSinceReferenceDate(iso8601: text) else {
                throw .xml(
                    "line \(line): <date> holds \"\(text.prefix(40))\"; expected a UTC date like 2026-11-21T02:00:00Z")
            }
            return .date(seconds)
        case "data":
            guard let bytes = PropertyListText.base64Decoded(try content()) else {
                throw .xml("line \(line): <data> does not hold valid base64")
            }
            return .data(bytes)
        default:
            throw .xml(
                "line \(line): unknown element <\(element.prefix(40))>; expected dict, array, string, integer, real, true, false, date or data"
            )
        }
    }

    private mutating func dictionary(line: Int, depth: Int) throws(PropertyListError) -> [String: PropertyListValue] {
        var entries: [String: PropertyListValue] = [:]
        while case .start(let name, let keyLine, let selfClosing) = try childItem(of: "dict", line: line) {
            guard name == "key" else {
                throw .xml("line \(keyLine): <\(name.prefix(40))> in a <dict> where a <key> was expected")
            }
            let key = try text(of: "key", line: keyLine, selfClosing: selfClosing)
            guard
                case .start(let valueName, let valueLine, let valueSelfClosing) = try childItem(of: "dict", line: line)
            else { throw .xml("line \(keyLine): <key> without a value at the end of a <dict>") }
            entries[key] = try value(valueName, line: valueLine, selfClosing: valueSelfClosing, depth: depth)
        }
        return entries
    }

    private mutating func children(of element: String, line: Int, depth: Int) throws(PropertyListError)
        -> [PropertyListValue]
    {
        var values: [PropertyListValue] = []
        while case .start(let name, let childLine, let selfClosing) = try childItem(of: element, line: line) {
            values.append(try value(name, line: childLine, selfClosing: selfClosing, depth: depth))
        }
        return values
    }

    /// The next child element of a container, or `.end` once it is closed; only whitespace may sit between.
    private mutating func childItem(of element: String, line: Int) throws(PropertyListError) -> XMLScanner.Item {
        while true {
            let item = try scanner.next()
            switch item {
            case .start: return item
            case .end(let name, let endLine):
                try checkClose(element, openedAt: line, by: name, at: endLine)
                return item
            case .text(let text, let textLine):
                guard text.trimmingWhitespace().isEmpty else {
                    throw .xml("line \(textLine): text directly inside <\(element)>")
                }
            case .endOfDocument: throw .xml("line \(line): <\(element)> is never closed: the document ends first")
            }
        }
    }

    /// The text of a leaf element, CDATA included. Elements inside are refused.
    private mutating func text(of element: String, line: Int, selfClosing: Bool) throws(PropertyListError) -> String {
        guard !selfClosing else { return "" }
        var text = ""
        while true {
            switch try scanner.next() {
            case .text(let piece, _): text += piece
            case .end(let name, let endLine):
                try checkClose(element, openedAt: line, by: name, at: endLine)
                return text
            case .start(_, let childLine, _): throw .xml("line \(childLine): <\(element)> may hold only text")
            case .endOfDocument: throw .xml("line \(line): <\(element)> is never closed: the document ends first")
            }
        }
    }

    private func checkClose(_ element: String, openedAt line: Int, by name: String, at endLine: Int)
        throws(PropertyListError)
    {
        guard name == element else {
            throw .xml("line \(endLine): </\(name.prefix(40))> closes <\(element)> opened at line \(line)")
        }
    }

    private func deeper(_ depth: Int, _ line: Int) throws(PropertyListError) -> Int {
        guard depth < PropertyListLimits.maxDepth else {
            throw .xml("line \(line): containers nested more than \(PropertyListLimits.maxDepth) deep")
        }
        return depth + 1
    }

    /// Decimal with an optional sign, or hexadecimal with a 0x prefix (as plistlib writes and reads).
    private func integer(_ text: String, line: Int) throws(PropertyListError) -> Int64 {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        let isHex = digits.hasPrefix("0x") || digits.hasPrefix("0X")
        let body = isHex ? digits.dropFirst(2) : digits
        let isDigit: (Character) -> Bool = { isHex ? $0.isHexDigit : ("0"..."9").contains($0) }
        guard !body.isEmpty, body.allSatisfy(isDigit), let magnitude = UInt64(body, radix: isHex ? 16 : 10) else {
            throw .xml("line \(line): <integer> holds \"\(text.prefix(40))\", which is not an integer")
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw .xml("line \(line): <integer> \(text.prefix(40)) is below the 64-bit range")
            }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else {
            throw .xml("line \(line): <integer> \(text.prefix(40)) is above the signed 64-bit range")
        }
        return Int64(magnitude)
    }
}
