import StocktakeModel

/// Tells what a regular file holds from its name, then its first bytes: on the walk's hot path, so no allocation.
public enum ContentSniffer {
    /// Leading bytes read when the name does not settle the kind: enough for every signature and plist marker.
    public static let prefixLength = 96

    /// The kind settled by the name (and size) alone; nil when the first bytes must be read.
    public static func kind(name: UnsafeBufferPointer<UInt8>, size: Int64) -> ContentKind? {
        if size == 0 { return .empty }
        return ContentKind.named(name)
    }

    /// The kind from the first bytes (up to `prefixLength`): signatures win, then text and JSON. `name` breaks ties
    /// (a generic MP4 brand) and names files that may carry no signature (an idle journal, encrypted Realm).
    public static func kind(prefix: UnsafeRawBufferPointer, name: UnsafeBufferPointer<UInt8>) -> ContentKind {
        if prefix.isEmpty { return .empty }
        if let kind = signatureKind(prefix, name: name) { return kind }
        let textual = textKind(prefix)
        return switch textual == .unknown ? ContentKind.named(name) : nil {
        case let kind? where [.sqliteWAL, .sqliteSHM, .sqliteJournal, .realm, .realmAuxiliary].contains(kind): kind
        default: textual
        }
    }

    /// `.json`, `.text` or `.unknown` for bytes that matched no binary signature.
    static func textKind(_ prefix: UnsafeRawBufferPointer) -> ContentKind {
        // A prefix cut at `prefixLength` may end inside a multi-byte character.
        guard isPrintableUTF8(prefix, mayBeCut: prefix.count >= prefixLength) else { return .unknown }
        return looksLikeJSON(prefix) ? .json : .text
    }

    /// Valid UTF-8 with no control characters but tab, line breaks, form feed and escape (colour codes in logs).
    static func isPrintableUTF8(_ bytes: UnsafeRawBufferPointer, mayBeCut: Bool) -> Bool {
        var index = 0
        while index < bytes.count {
            // Fast path: eight printable ASCII bytes at a time (most text is plain ASCII).
            if let word = bytes.bigEndianUInt64(at: index), isPrintableASCII(word) {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                if lead < 0x20 ? !isTextControl(lead) : lead == 0x7F { return false }
                index += 1
                continue
            }
            // Well-formed UTF-8 only: no overlong form, surrogate or code point past U+10FFFF.
            guard let (length, second) = PathText.sequence(lead: lead) else { return false }
            for offset in 1..<length {
                guard index + offset < bytes.count else { return mayBeCut }
                let byte = bytes[index + offset]
                guard offset == 1 ? second.contains(byte) : byte & 0xC0 == 0x80 else { return false }
            }
            index += length
        }
        return true
    }

    /// Whether all eight bytes lie in 0x20…0x7E (SWAR); tab and newline take the byte-wise path.
    @inline(__always) static func isPrintableASCII(_ word: UInt64) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        guard word & high == 0 else { return false }
        let belowSpace = (word &- 0x20 &* ones) & ~word & high
        let delete = word ^ (0x7F &* ones)
        let hasDelete = (delete &- ones) & ~delete & high
        return belowSpace | hasDelete == 0
    }

    @inline(__always) private static func isTextControl(_ byte: UInt8) -> Bool {
        (0x09...0x0D).contains(byte) || byte == 0x1B
    }

    /// JSON: an object opening with a key or closing at once, or an array whose first element starts like a value,
    /// which keeps INI sections (`[main]`) and log lines (`[2024-05-01 12:00] …`) out.
    static func looksLikeJSON(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = firstNonBlank(bytes)
        guard let opener = bytes.byte(at: start) else { return false }
        let next = skipBlanks(bytes, from: start + 1)
        guard let following = bytes.byte(at: next) else {
            return opener == UInt8(ascii: "{") || opener == UInt8(ascii: "[")
        }
        switch opener {
        case UInt8(ascii: "{"): return following == UInt8(ascii: "\"") || following == UInt8(ascii: "}")
        case UInt8(ascii: "["): return arrayElementStartsLikeJSON(bytes, at: next)
        default: return false
        }
    }

    private static func arrayElementStartsLikeJSON(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "]"): return true
        case UInt8(ascii: "t"): return isLiteralPrefix("true", bytes, at: index)
        case UInt8(ascii: "f"): return isLiteralPrefix("false", bytes, at: index)
        case UInt8(ascii: "n"): return isLiteralPrefix("null", bytes, at: index)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // A number, then a separator (or the end of what was read).
            var end = index + 1
            while let byte = bytes.byte(at: end), isNumberByte(byte) { end += 1 }
            let after = skipBlanks(bytes, from: end)
            guard let byte = bytes.byte(at: after) else { return true }
            return byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")
        default: return false
        }
    }

    /// Whether the bytes at `index` spell `literal`, or as much of it as was read.
    private static func isLiteralPrefix(_ literal: StaticString, _ bytes: UnsafeRawBufferPointer, at index: Int) -> Bool
    {
        let available = min(literal.utf8CodeUnitCount, bytes.count - index)
        for offset in 0..<available where bytes[index + offset] != literal.utf8Start[offset] { return false }
        return true
    }

    @inline(__always) private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    private static func skipBlanks(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
        return index
    }
}
