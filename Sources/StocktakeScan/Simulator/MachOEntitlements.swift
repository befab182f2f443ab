import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists

/// The entitlements an app was signed with (which say its App Groups): simulator builds carry them in the
/// `__TEXT,__entitlements` section, device builds in the code signature's `0xfade7171` blob. Every offset is
/// checked and every read bounded: an executable is someone else's bytes too.
enum MachOEntitlements {
    /// Most bytes of load commands, and of one entitlements plist, that are read.
    static let maxLoadCommandBytes = 1 << 20
    static let maxEntitlementsBytes = 1 << 20
    private static let maxSlices = 16
    /// Load commands looked at in one image (a real executable has about a hundred); the work is linear in them.
    static let maxLoadCommands = 4_096

    /// The entitlements of the first slice that has any; nil when the file has none (or is no Mach-O).
    static func read(executable path: String) throws(FileRefusal) -> PropertyListValue? {
        var options = RegularFile.Options.insideContainer(maxBytes: nil)
        let file = try RegularFile.open(path, options: &options)
        let header = try file.read(at: 0, count: 8 + 20 * maxSlices)
        guard header.count >= 8 else { return nil }
        let magic = header[...].uint32(at: 0, bigEndian: true)
        guard magic == 0xCAFE_BABE || magic == 0xCAFE_BABF else { return try thin(file, at: 0) }
        let is64 = magic == 0xCAFE_BABF
        let count = Int(header[...].uint32(at: 4, bigEndian: true))
        // Java class files share 0xcafebabe; their "count" (a version) is far above any slice count.
        guard count > 0, count <= maxSlices else { return nil }
        let entrySize = is64 ? 32 : 20
        let table = try file.read(at: 8, count: count * entrySize)
        for slice in 0..<count where table.count >= (slice + 1) * entrySize {
            let base = slice * entrySize + 8
            let offset =
                is64
                ? table[...].uint64(at: base, bigEndian: true) : UInt64(table[...].uint32(at: base, bigEndian: true))
            if offset < UInt64(file.size), let found = try thin(file, at: Int64(offset)) { return found }
        }
        return nil
    }

    /// One Mach-O image starting at `start`: its entitlements section, else its code signature's blob.
    private static func thin(_ file: RegularFile, at start: Int64) throws(FileRefusal) -> PropertyListValue? {
        let header = try file.read(at: start, count: 32)
        guard header.count >= 28 else { return nil }
        let magic = header[...].uint32(at: 0, bigEndian: false)
        guard magic == 0xFEED_FACF || magic == 0xFEED_FACE else { return nil }
        let is64 = magic == 0xFEED_FACF
        let commandCount = Int(header[...].uint32(at: 16, bigEndian: false))
        let commandBytes = Int(header[...].uint32(at: 20, bigEndian: false))
        guard commandBytes <= maxLoadCommandBytes else { return nil }
        let commands = try file.read(at: start + Int64(is64 ? 32 : 28), count: commandBytes)
        var signature: (offset: Int64, size: Int)?
        var section: (offset: UInt32, size: Int)?
        var cursor = 0
        // The load commands are read once, walked once; the first `__entitlements` section is the one read.
        for _ in 0..<min(commandCount, maxLoadCommands) {
            guard cursor + 8 <= commands.count else { break }
            let command = commands[...].uint32(at: cursor, bigEndian: false)
            let size = Int(commands[...].uint32(at: cursor + 4, bigEndian: false))
            guard size >= 8, cursor + size <= commands.count else { break }
            let body = Array(commands[cursor..<(cursor + size)])
            if command == 0x19 || command == 0x1 {
                if section == nil { section = entitlementsSection(body, is64: command == 0x19) }
            } else if command == 0x1D, body.count >= 16, signature == nil {
                signature = (
                    Int64(body[...].uint32(at: 8, bigEndian: false)), Int(body[...].uint32(at: 12, bigEndian: false))
                )
            }
            cursor += size
        }
        if let section {
            let bytes = try file.read(at: start + Int64(section.offset), count: min(section.size, maxEntitlementsBytes))
            if let value = try? PropertyListReader.parse(Array(bytes.prefix { $0 != 0 })) { return value }
        }
        guard let signature else { return nil }
        return try codeSignatureEntitlements(file, at: start + signature.offset, size: signature.size)
    }

    /// `__TEXT,__entitlements` in an LC_SEGMENT_64 (sections of 80 bytes after 72) or LC_SEGMENT (68 after 56).
    private static func entitlementsSection(_ command: [UInt8], is64: Bool) -> (offset: UInt32, size: Int)? {
        let headerSize = is64 ? 72 : 56
        let sectionSize = is64 ? 80 : 68
        guard command.count >= headerSize, name(command, 8) == "__TEXT" else { return nil }
        let count = Int(command[...].uint32(at: is64 ? 64 : 48, bigEndian: false))
        for index in 0..<count {
            let base = headerSize + index * sectionSize
            guard base + sectionSize <= command.count else { return nil }
            guard name(command, base) == "__entitlements" else { continue }
            let size =
                is64
                ? Int(clamping: command[...].uint64(at: base + 40, bigEndian: false))
                : Int(command[...].uint32(at: base + 36, bigEndian: false))
            return (command[...].uint32(at: base + (is64 ? 48 : 40), bigEndian: false), size)
        }
        return nil
    }

    /// The XML entitlements blob of a code signature super blob (both big-endian, unlike the Mach-O around them).
    private static func codeSignatureEntitlements(_ file: RegularFile, at offset: Int64, size: Int) throws(FileRefusal)
        -> PropertyListValue?
    {
        let superBlob = try file.read(at: offset, count: min(size, 64 << 10))
        guard superBlob.count >= 12, superBlob[...].uint32(at: 0, bigEndian: true) == 0xFADE_0CC0 else { return nil }
        let count = Int(superBlob[...].uint32(at: 8, bigEndian: true))
        for index in 0..<min(count, 64) {
            let entry = 12 + index * 8
            guard entry + 8 <= superBlob.count else { return nil }
            let blobOffset = Int64(superBlob[...].uint32(at: entry + 4, bigEndian: true))
            let blobHeader = try file.read(at: offset + blobOffset, count: 8)
            guard blobHeader.count == 8, blobHeader[...].uint32(at: 0, bigEndian: true) == 0xFADE_7171 else { continue }
            let length = Int(blobHeader[...].uint32(at: 4, bigEndian: true))
            guard length > 8, length - 8 <= maxEntitlementsBytes else { return nil }
            return try? PropertyListReader.parse(try file.read(at: offset + blobOffset + 8, count: length - 8))
        }
        return nil
    }

    private static func name(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<(offset + 16)].prefix { $0 != 0 }, as: UTF8.self)
    }
}
