/// AppleDouble sidecars (`._name`): how macOS carries extended attributes through file systems and archives that
/// cannot hold them, laid out as xnu writes it (`bsd/vfs/vfs_xattr.c`); every offset and length is checked first.
public enum AppleDouble {
    /// At most this many attributes are read from one sidecar.
    public static let maxAttributes = 1024
    /// macOS keeps the ATTR header and all its entries within the first 64 KiB.
    public static let attributeHeaderLimit = 65536

    /// One extended attribute in a sidecar: its name and where its value lies in the sidecar.
    public struct Attribute: Sendable, Equatable {
        public let name: String
        public let valueRange: Range<Int>
    }

    /// Whether these leading bytes are an AppleDouble header (magic 00 05 16 07 + version 2).
    public static func hasHeader(_ prefix: UnsafeRawBufferPointer) -> Bool {
        prefix.bigEndianUInt32(at: 0) == magic && prefix.bigEndianUInt32(at: 4) == version2
    }

    /// The extended-attribute names in a sidecar, in file order. `fileSize`: the sidecar's size when `bytes` holds only
    /// its first 64 KiB (headers and names live there; values may lie beyond).
    public static func attributeNames(in bytes: UnsafeRawBufferPointer, fileSize: Int? = nil) throws(AppleDoubleError)
        -> [String]
    {
        try attributes(in: bytes, fileSize: fileSize).map(\.name)
    }

    public static func attributes(in bytes: UnsafeRawBufferPointer, fileSize: Int? = nil) throws(AppleDoubleError)
        -> [Attribute]
    {
        let extent = UInt64(max(bytes.count, fileSize ?? 0))
        guard let finderInfo = try finderInfoEntry(in: bytes, extent: extent) else { return [] }
        // The ATTR block lives inside the FinderInfo entry, after 32 bytes of Finder info and 2 of pad.
        let headerStart = finderInfo.offset + finderInfoSize + 2
        guard finderInfo.length >= finderInfoSize + 2 + attrHeaderSize,
            bytes.bigEndianUInt32(at: headerStart) == attrMagic
        else { return [] }  // plain Finder info: no extended attributes
        let entriesStart = headerStart + attrHeaderSize
        guard entriesStart <= attributeHeaderLimit else {
            throw AppleDoubleError(.attributeHeaderBeyondLimit, at: headerStart)
        }
        guard let declared = bytes.bigEndianUInt16(at: headerStart + 34) else {
            throw AppleDoubleError(.truncatedHeader, at: headerStart)  // unreachable: the entry range was checked
        }
        let count = Int(declared)
        guard count <= maxAttributes else { throw AppleDoubleError(.tooManyAttributes(count), at: headerStart + 34) }
        return try readAttributeEntries(in: bytes, extent: extent, from: entriesStart, count: count)
    }

    /// The name of the file a sidecar describes: `._foo` → `foo`, `._.` → `.`; nil for `._` or no prefix.
    public static func targetName(ofSidecar name: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard name.count > 2, name[0] == UInt8(ascii: "."), name[1] == UInt8(ascii: "_") else { return nil }
        return Array(name[2...])
    }

    // MARK: - Layout

    static let magic: UInt32 = 0x0005_1607
    static let version2: UInt32 = 0x0002_0000
    private static let attrMagic: UInt32 = 0x4154_5452  // "ATTR"
    private static let headerSize = 26  // magic, version, 16-byte filler, u16 entry count
    private static let headerEntrySize = 12  // u32 id, u32 offset, u32 length
    private static let finderInfoID: UInt32 = 9
    private static let finderInfoSize = 32
    private static let attrHeaderSize = 36  // magic … flags, u16 attribute count at +34
    private static let attrEntryFixedSize = 11  // u32 offset, u32 length, u16 flags, u8 name length

    /// Checks the header and every entry's range; returns the first FinderInfo entry, if any.
    private static func finderInfoEntry(
        in bytes: UnsafeRawBufferPointer, extent: UInt64
    ) throws(AppleDoubleError) -> (offset: Int, length: Int)? {
        guard hasHeader(bytes) else {
            throw AppleDoubleError(isCutMagic(bytes) ? .truncatedHeader : .notAppleDouble, at: 0)
        }
        guard let entryCount = bytes.bigEndianUInt16(at: 24) else { throw AppleDoubleError(.truncatedHeader, at: 24) }
        let tableEnd = headerSize + headerEntrySize * Int(entryCount)
        guard tableEnd <= bytes.count else { throw AppleDoubleError(.truncatedHeader, at: headerSize) }
        var finderInfo: (offset: Int, length: Int)?
        for index in 0..<Int(entryCount) {
            let at = headerSize + headerEntrySize * index
            guard let id = bytes.bigEndianUInt32(at: at), let offset = bytes.bigEndianUInt32(at: at + 4),
                let length = bytes.bigEndianUInt32(at: at + 8)
            else { throw AppleDoubleError(.truncatedHeader, at: at) }
            guard UInt64(offset) + UInt64(length) <= extent else {
                throw AppleDoubleError(.entryOutOfRange(index: index, entryID: id), at: at)
            }
            if id == finderInfoID, finderInfo == nil { finderInfo = (Int(offset), Int(length)) }
        }
        return finderInfo
    }

    /// Reads `count` attribute entries (each 4-byte aligned) and checks names and value ranges.
    private static func readAttributeEntries(
        in bytes: UnsafeRawBufferPointer, extent: UInt64, from start: Int, count: Int
    ) throws(AppleDoubleError) -> [Attribute] {
        var attributes: [Attribute] = []
        attributes.reserveCapacity(count)
        var cursor = start
        for index in 0..<count {
            guard let valueOffset = bytes.bigEndianUInt32(at: cursor),
                let valueLength = bytes.bigEndianUInt32(at: cursor + 4),
                let nameLength = bytes.byte(at: cursor + 10).map(Int.init)
            else { throw AppleDoubleError(.attributeEntryOutOfRange(index: index), at: cursor) }
            let nameStart = cursor + attrEntryFixedSize
            let entryEnd = nameStart + nameLength
            guard entryEnd <= bytes.count else {
                throw AppleDoubleError(.attributeEntryOutOfRange(index: index), at: cursor)
            }
            guard entryEnd <= attributeHeaderLimit else {
                throw AppleDoubleError(.attributeHeaderBeyondLimit, at: cursor)
            }
            // The length counts the trailing NUL, so 1 is an empty name too.
            guard nameLength > 1 else { throw AppleDoubleError(.emptyAttributeName(index: index), at: cursor) }
            let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[nameStart..<(entryEnd - 1)])
            guard bytes[entryEnd - 1] == 0, !nameBytes.contains(0), let name = validUTF8(nameBytes) else {
                throw AppleDoubleError(.invalidAttributeName(index: index), at: nameStart)
            }
            let valueEnd = UInt64(valueOffset) + UInt64(valueLength)
            guard valueEnd <= extent else {
                throw AppleDoubleError(.attributeValueOutOfRange(index: index), at: cursor)
            }
            attributes.append(Attribute(name: name, valueRange: Int(valueOffset)..<Int(valueEnd)))
            cursor += (attrEntryFixedSize + nameLength + 3) & ~3
        }
        return attributes
    }

    /// Whether a too-short buffer is the start of a valid header (so the file was cut, not foreign).
    private static func isCutMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let header: [UInt8] = [0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00]  // `magic`, then `version2`
        return bytes.count < header.count && header.starts(with: bytes)
    }

    /// The bytes as a String when they are valid UTF-8 (decoding repairs nothing).
    private static func validUTF8(_ bytes: UnsafeRawBufferPointer) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }
}
