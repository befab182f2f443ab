import CLibXML2
import StocktakeModel

/// Decodes an XML property list through libxml2, with the network, entity expansion and DTD
/// loading off and nothing printed to stderr. Documents that declare entities are refused
/// outright (billion laughs), so every text node is plain text.
enum XMLPropertyListParser {
    static func parse(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        guard bytes.count <= Int(Int32.max) else {
            throw .xml("the document is \(bytes.count) bytes, too large to parse")
        }
        if declaresEntities(bytes) {
            throw .xml("the document declares entities (<!ENTITY); property lists never need them, and they can expand without bound")
        }
        guard !bytes.isEmpty else {
            throw .xml("the document is empty")
        }
        _ = libxml2Initialized
        guard let context = xmlNewParserCtxt() else {
            throw .xml("libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        // With XML_PARSE_NOERROR libxml2 still routes errors to a process-wide handler when one is
        // set; a structured handler on this context keeps them off stderr and keeps the first error,
        // which names the cause (the last one is often just "Premature end of data").
        let firstError = FirstError()
        context.pointee._private = Unmanaged.passUnretained(firstError).toOpaque()
        context.pointee.sax?.pointee.serror = { _, error in
            guard let error, let parser = error.pointee.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self),
                  let recorder = parser.pointee._private
            else { return }
            Unmanaged<FirstError>.fromOpaque(recorder).takeUnretainedValue().record(error.pointee)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        // The callback reaches firstError through an unretained pointer: keep it alive throughout.
        let document: xmlDocPtr? = withExtendedLifetime(firstError) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    xmlCtxtReadMemory(context, characters.baseAddress, Int32(characters.count), nil, nil, options)
                }
            }
        }
        guard let document else {
            throw .xml(firstError.message ?? lastError(of: context))
        }
        defer { xmlFreeDoc(document) }
        if let internalSubset = document.pointee.intSubset, internalSubset.pointee.entities != nil {
            throw .xml("the document declares entities; property lists never need them")
        }
        guard let root = xmlDocGetRootElement(document) else {
            throw .xml("the document has no root element")
        }
        let decoder = XMLPropertyListDecoder()
        if name(of: root) == "plist" {
            let children = try decoder.elementChildren(of: root)
            guard children.count == 1 else {
                throw .xml("<plist> at line \(xmlGetLineNo(root)) holds \(children.count) values; expected exactly one")
            }
            return try decoder.value(children[0], depth: 0)
        }
        return try decoder.value(root, depth: 0)
    }

    /// `<!ENTITY` in UTF-8 (or ASCII-compatible) and in either UTF-16 byte order.
    private static func declaresEntities(_ bytes: [UInt8]) -> Bool {
        let ascii: [UInt8] = Array("<!ENTITY".utf8)
        let bigEndian: [UInt8] = ascii.flatMap { character -> [UInt8] in [0, character] }
        let littleEndian: [UInt8] = ascii.flatMap { character -> [UInt8] in [character, 0] }
        return [ascii, bigEndian, littleEndian].contains { pattern in contains(bytes, pattern) }
    }

    private static func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
        guard let first = pattern.first, bytes.count >= pattern.count else { return false }
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                return true
            }
            index += 1
        }
        return false
    }

    private static func lastError(of context: xmlParserCtxtPtr) -> String {
        guard let error = xmlCtxtGetLastError(UnsafeMutableRawPointer(context)),
              let message = describe(error.pointee)
        else { return "the document is not well-formed XML" }
        return message
    }

    fileprivate static func describe(_ error: xmlError) -> String? {
        guard let message = error.message else { return nil }
        let text = String(cString: message).trimmingWhitespace()
        return error.line > 0 ? "line \(error.line): \(text)" : text
    }

    /// libxml2 must initialise its globals once before threads use it concurrently.
    private static let libxml2Initialized: Void = xmlInitParser()
}

func name(of node: xmlNodePtr) -> String {
    guard let name = node.pointee.name else { return "" }
    return String(cString: name)
}

extension String {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

/// Keeps the first error or fatal error libxml2 reports while parsing one document.
private final class FirstError {
    private(set) var message: String?

    // Takes the struct, not a pointer: libxml2 2.12 made the callback's pointer const.
    func record(_ error: xmlError) {
        guard message == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        message = XMLPropertyListParser.describe(error)
    }
}
