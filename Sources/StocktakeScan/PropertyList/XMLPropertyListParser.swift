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
        // libxml2 reports through three channels: this context's structured handler (parse errors), the
        // thread's structured handler (errors raised without a context, such as a failed encoding
        // conversion) and the thread's generic handler (text it prints itself), whose default is stderr.
        // All three go to `errors` while parsing, and nowhere afterwards: a cron run stays silent, and
        // the first error becomes the plist's problem in the report.
        let errors = XMLErrorRecorder()
        context.pointee._private = Unmanaged.passUnretained(errors).toOpaque()
        context.pointee.sax?.pointee.serror = { _, error in
            guard let error, let parser = error.pointee.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self),
                  let recorder = parser.pointee._private
            else { return }
            Unmanaged<XMLErrorRecorder>.fromOpaque(recorder).takeUnretainedValue().record(error.pointee)
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        // The callbacks reach `errors` through unretained pointers: keep it alive throughout.
        let document: xmlDocPtr? = withExtendedLifetime(errors) {
            errors.routeThisThread()
            defer { XMLErrorRecorder.silenceThisThread() }
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    xmlCtxtReadMemory(context, characters.baseAddress, Int32(characters.count), nil, nil, options)
                }
            }
        }
        guard let document else {
            throw .xml(errors.message ?? lastError(of: context))
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

    static func describe(_ error: xmlError) -> String? {
        guard let message = error.message else { return nil }
        let text = String(cString: message).trimmingWhitespace()
        if error.domain == Int32(XML_FROM_I18N.rawValue) { return "encoding error: \(text)" }
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
