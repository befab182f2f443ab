import StocktakeModel

/// Decodes an XML property list with Stocktake's own bounded parser: no DTD processing, no entity
/// expansion, no network, nothing printed. Documents that declare entities are refused outright
/// (billion laughs). Needs no system XML library, so the same code runs on Linux and macOS.
enum XMLPropertyListParser {
    static func parse(_ bytes: [UInt8], meter: ContentMeter? = nil) throws(PropertyListError) -> PropertyListValue {
        guard !bytes.isEmpty else { throw .xml("the document is empty") }
        let utf8 = try XMLTextEncoding.utf8(bytes)
        if ByteSearch.contains(Array("<!ENTITY".utf8), in: utf8[...]) {
            throw .xml(
                "the document declares entities (<!ENTITY); property lists never need them, and they can expand without bound"
            )
        }
        var decoder = XMLPropertyListDecoder(utf8: utf8, meter: meter)
        return try decoder.document()
    }
}

extension String {
    package func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
