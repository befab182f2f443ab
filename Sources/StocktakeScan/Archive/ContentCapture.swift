import StocktakeContent
import StocktakeModel

/// What an archive's first pass keeps for the content checks, so they need no second pass (for a compressed tar, a
/// second decompression): as many of each entry's bytes as they read, in memory; SQLite stores (read as files), entries
/// over 1 MiB and what is past the memory's bounds as files in a private temporary folder. Past the disk's bounds,
/// the second pass copies.
/// A text file is scanned as it streams by, and its bytes kept only when it may hold a secret.
struct ContentCapture {
    let budget = ContentInspector.Budget()
    let scratch: ScratchFolder
    private(set) var kept: [Int32: ContentInspector.Source] = [:]
    private var keptBytes: Int64 = 0
    private var storeBytes: Int64 = 0
    /// What went to disk, stores aside.
    private var diskBytes: Int64 = 0
    static let maxStoreBytes: Int64 = 256 << 20
    static let maxKeptBytes: Int64 = 32 << 20
    static let maxKeptEntries = 8_000
    /// Larger entries go to files of their own as they stream by, as do all past the memory's bounds.
    static let maxKeptEntryBytes: Int64 = 1 << 20
    static let maxDiskBytes: Int64 = 2 << 30

    /// Nil without a temporary folder: then nothing is kept.
    init?() {
        guard let scratch = ScratchFolder("stocktake-capture") else { return nil }
        self.scratch = scratch
    }

    /// How many bytes of the entry to keep, nil when none. A `-wal` is kept as a store: the checks read them together.
    func wanted(kind: ContentKind, size: Int64) -> Int64? {
        let wal = kind == .sqliteWAL && size <= budget.copiedStoreBytes
        guard let bytes = wal ? size : budget.bytesRead(kind: kind, size: size), bytes > 0 else { return nil }
        if kind == .sqlite || wal { return storeBytes + bytes <= Self.maxStoreBytes ? bytes : nil }
        return diskBytes + bytes <= Self.maxDiskBytes ? bytes : nil
    }

    /// Keeps an entry's bytes: `prefix` already read, the rest (up to `bytes` in all) read from the stream now.
    mutating func keep(
        ordinal: Int32, kind: ContentKind, bytes: Int64, prefix: UnsafeRawBufferPointer, stream: ArchiveStream
    ) throws(ArchiveReadFailure) {
        let isStore = kind == .sqlite || kind == .sqliteWAL
        if isStore || bytes > Self.maxKeptEntryBytes {
            // Copied into a file of its own as it streams by: a 64 MiB Realm file never sits in memory whole.
            guard let file = try copy(ordinal: ordinal, bytes: bytes, prefix: prefix, stream: stream) else { return }
            if isStore { storeBytes += bytes } else { diskBytes += bytes }
            kept[ordinal] = .file(file)
            return
        }
        var data = Array(prefix.prefix(Int(bytes)))
        if Int64(data.count) < bytes {
            let rest = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(bytes) - data.count, alignment: 8)
            defer { rest.deallocate() }
            let count = try stream.read(into: rest)
            data += rest[0..<count]
        }
        let isText = kind == .json || kind == .text
        if isText && data.count == bytes && data.withUnsafeBytes(WalkTextScan.holdsNoTrigger) {
            kept[ordinal] = .scannedClean
        } else if kept.count < Self.maxKeptEntries && keptBytes + Int64(data.count) <= Self.maxKeptBytes {
            keptBytes += Int64(data.count)
            kept[ordinal] = .bytes(data)
        } else if let file = scratch.store("\(ordinal)", data) {
            // Past the memory's bounds: a file of its own.
            diskBytes += Int64(data.count)
            kept[ordinal] = .file(file)
        }
    }

    /// Streams the entry's first `bytes` (`prefix` already read) into the scratch folder's file named by its ordinal.
    func copy(
        ordinal: Int32, bytes: Int64, prefix: UnsafeRawBufferPointer = .init(start: nil, count: 0),
        stream: ArchiveStream
    ) throws(ArchiveReadFailure) -> String? {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { chunk.deallocate() }
        var first = UnsafeRawBufferPointer(rebasing: prefix.prefix(Int(bytes)))
        var remaining = bytes - Int64(first.count)
        return try scratch.store("\(ordinal)") { () throws(ArchiveReadFailure) -> UnsafeRawBufferPointer in
            if !first.isEmpty {
                defer { first = UnsafeRawBufferPointer(start: nil, count: 0) }
                return first
            }
            let wanted = Int(min(remaining, Int64(chunk.count)))
            let count =
                wanted > 0 ? try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk.prefix(wanted))) : 0
            remaining = count < wanted ? 0 : remaining - Int64(count)
            return UnsafeRawBufferPointer(rebasing: chunk.prefix(count))
        }
    }
}
