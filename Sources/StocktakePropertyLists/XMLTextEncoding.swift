/// Brings an XML plist's bytes to validated UTF-8, detecting the encoding as XML does: a byte-order mark, zero bytes
/// around the first `<`, else the declaration's `encoding=` (UTF-8, US-ASCII or ISO-8859-1).
enum XMLTextEncoding {
    static func utf8(_ bytes: [UInt8]) throws(PropertyListError) -> [UInt8] {
        if bytes.starts(with: [0xFE, 0xFF]) { return try utf16(bytes.dropFirst(2), bigEndian: true) }
        if bytes.starts(with: [0xFF, 0xFE]) { return try utf16(bytes.dropFirst(2), bigEndian: false) }
        if bytes.starts(with: [0x00, 0x3C]) { return try utf16(bytes[...], bigEndian: true) }
        if bytes.starts(with: [0x3C, 0x00]) { return try utf16(bytes[...], bigEndian: false) }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        switch declaredEncoding(body) {
        case nil, "utf-8", "utf8", "us-ascii", "ascii":
            try validateUTF8(body)
            return body
        case "iso-8859-1", "latin1", "iso_8859-1", "latin-1":
            // Each byte is the code point of the same number.
            var utf8: [UInt8] = []
            utf8.reserveCapacity(body.count)
            for byte in body { utf8.append(contentsOf: UTF8.encode(Unicode.Scalar(byte))!) }
            return utf8
        case "utf-16", "utf-16le", "utf-16be":
            throw .xml("encoding error: the declaration says UTF-16 but the document is 8-bit text")
        case let other?:
            throw .xml(
                "encoding error: \"\(other.prefix(40))\" is not supported; expected UTF-8, UTF-16, US-ASCII or ISO-8859-1"
            )
        }
    }

    /// The lowercased `encoding` pseudo-attribute of a leading `<?xml ...?>`, if any.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let declaration = bytes.prefix(200).prefix { $0 != UInt8(ascii: ">") }
        let text = String(decoding: declaration, as: UTF8.self)
        guard let range = text.range(of: "encoding") else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote }).lowercased()
    }

    private static func validateUTF8(_ bytes: [UInt8]) throws(PropertyListError) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return
            case .error:
                let line = 1 + bytes[..<offset].lazy.filter { $0 == 0x0A }.count
                throw .xml(
                    "encoding error: line \(line): byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at offset \(offset) is not valid UTF-8"
                )
            }
        }
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(PropertyListError) -> [UInt8] {
        guard bytes.count % 2 == 0 else {
            throw .xml("encoding error: UTF-16 text of an odd number of bytes (\(bytes.count))")
        }
        let units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).map {
            let (first, second) = (UInt16(bytes[$0]), UInt16(bytes[$0 + 1]))
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(units.count)
        let unpaired = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) {
            utf8.append($0)
        }
        if unpaired {
            let line = 1 + utf8.lazy.filter { $0 == 0x0A }.count
            throw .xml("encoding error: line \(line): an unpaired UTF-16 surrogate")
        }
        return utf8
    }
}
