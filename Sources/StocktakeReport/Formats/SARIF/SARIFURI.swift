/// Percent-encoding of container paths into URI references (RFC 3986). Names are hostile: anything other
/// than an unreserved character or the `/` separator is encoded as UTF-8 bytes, so `#`, `?`, `%`, `:`,
/// spaces and non-ASCII can never change what the reference means.
enum SARIFURI {
    /// A path relative to the container root, as a relative reference; the root itself is `./`. Encoding
    /// `:` keeps a first segment such as `C:` from reading as a scheme.
    static func relativeReference(_ path: String) -> String {
        let encoded = encodePath(path)
        // "./" for the root; never a leading "/" (absolute) or "//" (a host name).
        return encoded.isEmpty || encoded.hasPrefix("/") ? "./" + encoded : encoded
    }

    static func encodePath(_ path: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
