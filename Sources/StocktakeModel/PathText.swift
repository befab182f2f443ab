/// Turning raw name bytes into text. Names in a container are attacker-controlled and need not be UTF-8.
public enum PathText {
    /// Whether the bytes are well-formed UTF-8. Our own check: the standard library's validating initialiser needs
    /// macOS 15, and the package targets macOS 13 (Tests/Scripts/typecheck_macos.py). Called per name in a walk.
    public static func isValidUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        if let valid = bytes.withContiguousStorageIfAvailable(isValidUTF8(buffer:)) { return valid }
        return Array(bytes).withUnsafeBufferPointer(isValidUTF8(buffer:))
    }

    /// The bytes as text when they are well-formed UTF-8, nil otherwise (the standard library's validating
    /// initialiser, for macOS 13).
    public static func text(validatingUTF8 bytes: some Collection<UInt8>) -> String? {
        isValidUTF8(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Readable form: invalid sequences become U+FFFD. Pair with the raw bytes wherever loss matters.
    public static func display(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The Unicode standard's well-formed sequences (table 3-7): no overlong form, no surrogate (U+D800–DFFF),
    /// nothing past U+10FFFF. ASCII, nearly every name, is skipped a word at a time.
    private static func isValidUTF8(buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = buffer.count
        var index = 0
        while index < count {
            while index + 8 <= count,
                UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080
                    == 0
            {
                index += 8
            }
            guard index < count else { break }
            let lead = buffer[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let (length, second) = sequence(lead: lead) else { return false }
            guard count - index >= length, second.contains(buffer[index + 1]) else { return false }
            for later in index + 2..<index + length where buffer[later] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// A multi-byte sequence's length and the range of its second byte, from its lead byte (any later byte is
    /// 80–BF); nil for a byte no sequence starts with.
    @inlinable public static func sequence(lead: UInt8) -> (length: Int, second: ClosedRange<UInt8>)? {
        switch lead {
        case 0xC2...0xDF: (2, 0x80...0xBF)
        case 0xE0: (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
        case 0xED: (3, 0x80...0x9F)
        case 0xF0: (4, 0x90...0xBF)
        case 0xF1...0xF3: (4, 0x80...0xBF)
        case 0xF4: (4, 0x80...0x8F)
        default: nil
        }
    }
}
