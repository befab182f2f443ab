import StocktakeFiles
import StocktakeModel

/// Reads property lists from untrusted containers: binary (`bplist00`) and XML, with every offset,
/// count, size and nesting level bounded. Never uses Foundation's plist APIs, which crash on
/// malformed binary plists on Linux.
public enum PropertyListReader {
    /// Parses binary (bplist00) or XML plists; anything else throws.
    /// `meter`: the content pass's, whose limits bound the values and bytes decoded as they are decoded.
    public static func parse(_ bytes: [UInt8], meter: ContentMeter? = nil) throws(PropertyListError)
        -> PropertyListValue
    {
        if bytes.starts(with: Array("bplist".utf8)) {
            guard bytes.starts(with: BinaryPropertyListParser.header) else {
                let version = String(decoding: bytes.prefix(8).dropFirst(6), as: UTF8.self)
                throw .binary("version \"\(version)\" is not supported; only bplist00 is")
            }
            var parser = try BinaryPropertyListParser(bytes, meter: meter)
            return try parser.parse()
        }
        if looksLikeXML(bytes) { return try XMLPropertyListParser.parse(bytes, meter: meter) }
        let shown = bytes.prefix(8).map(hex).joined(separator: " ")
        throw PropertyListError(
            "not a property list: expected a binary plist (bplist00) or an XML plist, found "
                + (bytes.isEmpty ? "an empty file" : "bytes \(shown)"))
    }

    /// The limit for the small plists a container describes itself with (container metadata, an app's Info.plist,
    /// a plist nested inside another): real ones are a few KB; 1 MiB leaves room and bounds a hostile one.
    public static let metadataLimit = 1 << 20

    /// Reads a regular file of at most `maxBytes` and parses it. Symbolic links are not followed and
    /// FIFOs, sockets and devices are never opened, so a hostile container cannot redirect or block
    /// the read.
    public static func read(contentsOfFile path: String, maxBytes: Int = 8 << 20) throws(PropertyListError)
        -> PropertyListValue
    {
        do {
            return try readUnlabelled(contentsOfFile: path, maxBytes: maxBytes)
        } catch {
            throw PropertyListError("\(path): \(error.message)")
        }
    }

    /// `read(contentsOfFile:maxBytes:)` with messages that do not repeat the path, for callers
    /// that show the path beside the message.
    package static func readUnlabelled(contentsOfFile path: String, maxBytes: Int = 8 << 20) throws(PropertyListError)
        -> PropertyListValue
    {
        let bytes: [UInt8]
        do {
            var options = RegularFile.Options.insideContainer(maxBytes: Int64(maxBytes))
            bytes = try RegularFile.open(path, options: &options).readAll()
        } catch { throw PropertyListError("cannot read the file: \(error)") }
        return try parse(bytes)
    }

    /// XML starts with `<` after an optional byte-order mark and whitespace; UTF-16 documents start
    /// with a byte-order mark or a zero byte next to the `<`.
    private static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
        if bytes.starts(with: [0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00]) { return true }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return body.first(where: { !isSpace($0) }) == UInt8(ascii: "<")
    }
}
