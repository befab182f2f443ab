/// Hexadecimal digits and RFC 3986 percent-encoding: one home for what the plist reader, the digests, the SARIF
/// and index-page links and SQLite's URI filenames all spell out.
public enum Hex {
    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)

    /// `bytes` as lowercase hex, two digits a byte (digests, data previews).
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes { text += [lower[Int(byte >> 4)], lower[Int(byte & 0x0F)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// One byte as two uppercase digits ("0A"), as messages quote a marker byte.
    public static func uppercase(_ byte: UInt8) -> String {
        String(decoding: [upper[Int(byte >> 4)], upper[Int(byte & 0x0F)]], as: UTF8.self)
    }

    /// `0`–`9`, `a`–`f`, `A`–`F`.
    public static func isDigit(_ byte: UInt8) -> Bool { value(of: byte) != nil }

    /// A UUID's shape, `8-4-4-4-12` hex digits (either case), at the start of `bytes`.
    public static func startsWithUUID(_ bytes: some Collection<UInt8>) -> Bool {
        var count = 0
        for byte in bytes.prefix(36) {
            let isDash = count == 8 || count == 13 || count == 18 || count == 23
            guard isDash ? byte == UInt8(ascii: "-") : isDigit(byte) else { return false }
            count += 1
        }
        return count == 36
    }

    /// Exactly a UUID's shape.
    public static func isUUID(_ bytes: some Collection<UInt8>) -> Bool { bytes.count == 36 && startsWithUUID(bytes) }

    /// RFC 3986 unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// `bytes` with every byte that is neither unreserved nor in `kept` written as `%XX` (uppercase, as RFC 3986
    /// recommends), so no name can add a scheme, a query, a fragment or an escape of its own.
    public static func percentEncoded(_ bytes: some Sequence<UInt8>, keeping kept: Set<UInt8> = []) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            if isUnreserved(byte) || kept.contains(byte) {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), upper[Int(byte >> 4)], upper[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` with every `%XX` turned back into its byte (a URL's user, password or database); nil when a `%` is not
    /// followed by two hex digits. Bytes that are not UTF-8 become U+FFFD.
    public static func percentDecoded(_ text: some StringProtocol) -> String? {
        var output: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard bytes.count >= 2, let high = value(of: bytes[bytes.startIndex]),
                let low = value(of: bytes[bytes.startIndex + 1])
            else { return nil }
            output.append(high << 4 | low)
            bytes = bytes.dropFirst(2)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A hex digit's value (either case); nil for any other byte.
    public static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
