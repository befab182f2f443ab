import CLibXML2
import StocktakeModel

/// Turns a parsed libxml2 tree of plist elements into a `PropertyListValue`. Rejects anything the
/// plist DTD does not allow: unknown elements, stray text, keys without values.
struct XMLPropertyListDecoder {
    func value(_ element: xmlNodePtr, depth: Int) throws(PropertyListError) -> PropertyListValue {
        let line = xmlGetLineNo(element)
        switch name(of: element) {
        case "dict":
            return .dictionary(try dictionary(element, depth: try deeper(depth, line)))
        case "array":
            let children = try elementChildren(of: element)
            let depth = try deeper(depth, line)
            var values: [PropertyListValue] = []
            values.reserveCapacity(children.count)
            for child in children {
                values.append(try value(child, depth: depth))
            }
            return .array(values)
        case "string":
            return .string(try text(of: element))
        case "integer":
            return .integer(try integer(try text(of: element).trimmingWhitespace(), line: line))
        case "real":
            let text = try text(of: element).trimmingWhitespace()
            guard let real = Double(text) else {
                throw .xml("line \(line): <real> holds \"\(text.prefix(40))\", which is not a number")
            }
            return .real(real)
        case "true", "false":
            guard try text(of: element).trimmingWhitespace().isEmpty else {
                throw .xml("line \(line): <\(name(of: element))/> must be empty")
            }
            return .bool(name(of: element) == "true")
        case "date":
            let text = try text(of: element).trimmingWhitespace()
            guard let seconds = PropertyListText.secondsSinceReferenceDate(iso8601: text) else {
                throw .xml("line \(line): <date> holds \"\(text.prefix(40))\"; expected a UTC date like 2026-11-21T02:00:00Z")
            }
            return .date(seconds)
        case "data":
            guard let bytes = PropertyListText.base64Decoded(try text(of: element)) else {
                throw .xml("line \(line): <data> does not hold valid base64")
            }
            return .data(bytes)
        case let other:
            throw .xml("line \(line): unknown element <\(other.prefix(40))>; expected dict, array, string, integer, real, true, false, date or data")
        }
    }

    private func dictionary(_ element: xmlNodePtr, depth: Int) throws(PropertyListError) -> [String: PropertyListValue] {
        let children = try elementChildren(of: element)
        var entries: [String: PropertyListValue] = [:]
        var index = 0
        while index < children.count {
            let key = children[index]
            guard name(of: key) == "key" else {
                throw .xml("line \(xmlGetLineNo(key)): <\(name(of: key).prefix(40))> in a <dict> where a <key> was expected")
            }
            guard index + 1 < children.count else {
                throw .xml("line \(xmlGetLineNo(key)): <key> without a value at the end of a <dict>")
            }
            entries[try text(of: key)] = try value(children[index + 1], depth: depth)
            index += 2
        }
        return entries
    }

    /// The element children of a container; only whitespace, comments and processing instructions
    /// may sit between them.
    func elementChildren(of element: xmlNodePtr) throws(PropertyListError) -> [xmlNodePtr] {
        var children: [xmlNodePtr] = []
        var node = element.pointee.children
        while let current = node {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                children.append(current)
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                guard content(of: current).trimmingWhitespace().isEmpty else {
                    throw .xml("line \(xmlGetLineNo(current)): text directly inside <\(name(of: element))>")
                }
            case XML_COMMENT_NODE, XML_PI_NODE:
                break
            default:
                throw .xml("line \(xmlGetLineNo(current)): unexpected node inside <\(name(of: element))>")
            }
            node = current.pointee.next
        }
        return children
    }

    /// The text of a leaf element: its text and CDATA children joined. Elements inside are refused.
    private func text(of element: xmlNodePtr) throws(PropertyListError) -> String {
        var text = ""
        var node = element.pointee.children
        while let current = node {
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                text += content(of: current)
            case XML_COMMENT_NODE, XML_PI_NODE:
                break
            default:
                throw .xml("line \(xmlGetLineNo(current)): <\(name(of: element))> may hold only text")
            }
            node = current.pointee.next
        }
        return text
    }

    private func content(of node: xmlNodePtr) -> String {
        guard let content = node.pointee.content else { return "" }
        return String(cString: content)
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
