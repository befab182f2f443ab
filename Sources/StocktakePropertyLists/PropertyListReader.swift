import StocktakeFiles
import StocktakeModel

/// Reads untrusted binary and XML property lists, every offset, count, size and nesting level bounded (Foundation's
/// plist APIs crash on malformed binary plists on Linux).
public enum PropertyListReader {
    /// Parses binary (bplist00) or XML plists, counting what is decoded against `meter`; anything else throws.
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
        if looksLikeXML(bytes) { return try XMLPropertyListDecoder.parse(bytes, meter: meter) }
        let shown = bytes.prefix(8).map(Hex.uppercase).joined(separator: " ")
        throw PropertyListError(
            "not a property list: expected a binary plist (bplist00) or an XML plist, found "
                + (bytes.isEmpty ? "an empty file" : "bytes \(shown)"))
    }

    /// The limit for the small plists a container describes itself with (metadata, Info.plist): real ones are a few KB.
    public static let metadataLimit = 1 << 20

    /// Reads a regular file of at most `maxBytes` (never through a link, never a FIFO or device) and parses it.
    public static func read(contentsOfFile path: String, maxBytes: Int = 8 << 20) throws(PropertyListError)
        -> PropertyListValue
    {
        do {
            return try readUnlabelled(contentsOfFile: path, maxBytes: maxBytes)
        } catch {
            throw PropertyListError("\(path): \(error.message)")
        }
    }

    /// `read(contentsOfFile:maxBytes:)` with messages that leave the path to the caller.
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

    /// `<` after an optional byte-order mark and whitespace, or UTF-16 (a mark, or a zero byte next to the `<`).
    private static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
        if bytes.starts(with: [0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00]) { return true }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return body.first(where: { !isSpace($0) }) == UInt8(ascii: "<")
    }
}
