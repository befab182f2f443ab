/// The first bytes of the archives Stocktake reads, for telling a user without libarchive whether a file is an
/// archive (install the library) or not a container at all.
enum ArchiveSignature {
    /// Whether `start` (a file's first 512 bytes) begins as a zip, a POSIX or GNU tar, or a compressed stream.
    static func matches(_ start: [UInt8]) -> Bool {
        func at(_ offset: Int, _ magic: [UInt8]) -> Bool {
            start.count >= offset + magic.count && Array(start[offset..<offset + magic.count]) == magic
        }
        return at(0, [0x50, 0x4B, 0x03, 0x04]) || at(0, [0x50, 0x4B, 0x05, 0x06])  // zip: a member, or an empty archive
            || at(257, Array("ustar".utf8))  // tar: POSIX `ustar\0`, GNU `ustar  `
            || LibArchive.Filter.allCases.contains { at(0, $0.magic) }
    }
}
