import StocktakeModel

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

    static func encodePath(_ path: String) -> String { Hex.percentEncoded(path.utf8, keeping: [UInt8(ascii: "/")]) }
}
