/// Links from the index page to report folders. Folder names come from bundle identifiers, which are
/// attacker-controlled: every path segment is percent-encoded, so a name can never become a scheme
/// (`javascript:`), a query, a fragment or an absolute path. The result needs no further escaping.
enum RelativeHref {
    static func encode(_ path: String) -> String {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        // Always relative to the page: a leading "/" would point at the root of the site or the disk.
        while segments.first?.isEmpty == true && segments.count > 1 { segments.removeFirst() }
        return segments.map(encodeSegment).joined(separator: "/")
    }

    private static func encodeSegment(_ segment: Substring) -> String {
        var encoded = ""
        for byte in segment.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return encoded
    }

    /// RFC 3986 unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static let hex = Array("0123456789ABCDEF")
}
