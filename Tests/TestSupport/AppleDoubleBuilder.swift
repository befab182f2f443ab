/// Writes AppleDouble sidecars (`._name`) laid out as macOS writes them:
/// header with a FinderInfo entry (id 9, offset 50) and a resource-fork entry (id 2), zeroed Finder
/// info, the ATTR block at 84 with 4-byte-aligned entries from 120, the values, then the 286-byte
/// empty resource fork at the end of a 4096-byte file (larger only when the attributes need it).
package enum AppleDoubleBuilder {
    package static let defaultSize = 4096
    package static let emptyResourceForkSize = 286

    /// A sidecar carrying `attributes` in order. Names must be 1…254 bytes of UTF-8.
    package static func sidecar(attributes: [(name: String, value: [UInt8])]) -> [UInt8] {
        let entriesStart = 120
        var entries: [UInt8] = []
        var values: [UInt8] = []
        let entriesLength = attributes.reduce(0) { $0 + alignedEntryLength(nameLength: $1.name.utf8.count + 1) }
        let dataStart = entriesStart + entriesLength
        for attribute in attributes {
            let name = Array(attribute.name.utf8) + [0]
            precondition(name.count > 1 && name.count <= 255, "attribute name must be 1…254 bytes")
            var entry: [UInt8] = []
            entry += bigEndian(UInt32(dataStart + values.count))
            entry += bigEndian(UInt32(attribute.value.count))
            entry += bigEndian(UInt16(0))  // flags
            entry.append(UInt8(name.count))
            entry += name
            entry += [UInt8](repeating: 0, count: alignedEntryLength(nameLength: name.count) - entry.count)
            entries += entry
            values += attribute.value
        }
        let dataEnd = dataStart + values.count
        let resourceForkOffset = max(defaultSize - emptyResourceForkSize, dataEnd)

        var file: [UInt8] = []
        file += bigEndian(UInt32(0x0005_1607))  // magic
        file += bigEndian(UInt32(0x0002_0000))  // version 2
        file += Array("Mac OS X        ".utf8)  // filler
        file += bigEndian(UInt16(2))  // entry count
        file += bigEndian(UInt32(9)) + bigEndian(UInt32(50)) + bigEndian(UInt32(resourceForkOffset - 50))
        file += bigEndian(UInt32(2)) + bigEndian(UInt32(resourceForkOffset)) + bigEndian(UInt32(emptyResourceForkSize))
        file += [UInt8](repeating: 0, count: 32 + 2)  // Finder info, pad
        file += Array("ATTR".utf8)
        file += bigEndian(UInt32(0))  // debug tag
        file += bigEndian(UInt32(resourceForkOffset))  // total size
        file += bigEndian(UInt32(dataStart))
        file += bigEndian(UInt32(values.count))  // data length
        file += [UInt8](repeating: 0, count: 12)  // reserved
        file += bigEndian(UInt16(0))  // flags
        file += bigEndian(UInt16(attributes.count))
        file += entries
        file += values
        file += [UInt8](repeating: 0, count: resourceForkOffset - file.count)
        file += emptyResourceFork()
        return file
    }

    /// Size of one attribute entry: 11 fixed bytes and the name, rounded up to 4.
    package static func alignedEntryLength(nameLength: Int) -> Int {
        (11 + nameLength + 3) & ~3
    }

    /// The empty resource fork macOS appends: a resource header and a map with no types.
    package static func emptyResourceFork() -> [UInt8] {
        var fork: [UInt8] = []
        fork += bigEndian(UInt32(256)) + bigEndian(UInt32(256)) + bigEndian(UInt32(0)) + bigEndian(UInt32(30))
        let message = Array("This resource fork intentionally left blank   ".utf8)
        fork += message + [UInt8](repeating: 0, count: 112 + 128 - message.count)  // system + application data
        fork += bigEndian(UInt32(256)) + bigEndian(UInt32(256)) + bigEndian(UInt32(0)) + bigEndian(UInt32(30))
        fork += bigEndian(UInt32(0))  // next map
        fork += bigEndian(UInt16(0)) + [0, 0]  // file reference number, attributes
        fork += bigEndian(UInt16(28)) + bigEndian(UInt16(30))  // type list, name list offsets
        fork += bigEndian(UInt16(0xFFFF))  // type count − 1 = −1: no types
        return fork
    }

    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    package static func bigEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value >> 8), UInt8(value & 0xFF)]
    }
}
