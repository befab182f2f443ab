import Foundation
import StocktakeContent
import StocktakeModel

/// What an archive's first pass keeps for the content checks, so they need no second pass (for a compressed tar, a
/// second decompression): as many of each entry's bytes as they read, in memory; SQLite stores (read as files) and
/// what is past the memory's bounds in a private temporary folder. Past the disk's bounds, the second pass copies.
struct ContentCapture {
    let budget = ContentInspector.Budget()
    let scratch: ScratchFolder
    private(set) var kept: [Int32: ContentInspector.Source] = [:]
    private var keptBytes: Int64 = 0
    private var storeBytes: Int64 = 0
    private var spill: (file: FileHandle, path: String, bytes: Int64)?
    static let maxStoreBytes: Int64 = 256 << 20
    static let maxKeptBytes: Int64 = 32 << 20
    static let maxKeptEntries = 8_000
    static let maxSpilledBytes: Int64 = 2 << 30

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
        return (spill?.bytes ?? 0) + bytes <= Self.maxSpilledBytes ? bytes : nil
    }

    /// Keeps an entry's bytes: `prefix` already read, the rest (up to `bytes` in all) read from the stream now.
    mutating func keep(
        ordinal: Int32, kind: ContentKind, bytes: Int64, prefix: UnsafeRawBufferPointer, stream: ArchiveStream
    ) throws(ArchiveReadFailure) {
        var data = Array(prefix.prefix(Int(bytes)))
        if Int64(data.count) < bytes {
            let rest = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(bytes) - data.count, alignment: 8)
            defer { rest.deallocate() }
            let count = try stream.read(into: rest)
            data += rest[0..<count]
        }
        if kind == .sqlite || kind == .sqliteWAL {
            guard let file = scratch.store("\(ordinal)", data) else { return }
            storeBytes += Int64(data.count)
            kept[ordinal] = .file(file)
        } else if kept.count < Self.maxKeptEntries && keptBytes + Int64(data.count) <= Self.maxKeptBytes {
            keptBytes += Int64(data.count)
            kept[ordinal] = .bytes(data)
        } else {
            if spill == nil, let path = scratch.store("spill", []), let file = FileHandle(forWritingAtPath: path) {
                spill = (file, path, 0)
            }
            guard let (file, path, offset) = spill, (try? file.write(contentsOf: data)) != nil else { return }
            spill?.bytes += Int64(data.count)
            kept[ordinal] = .slice(path, offset: offset, count: data.count)
        }
    }
}
