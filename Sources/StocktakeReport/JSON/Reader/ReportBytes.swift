import StocktakeFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of one `report.json`. The file is mapped, not copied: its pages are clean, come from the
/// page cache, and can be given back once read (`PageRelease`), so a 300 MB report does not cost 300 MB
/// of memory. Only a regular file is read (`RegularFile`): a FIFO would block and `/dev/zero` never ends.
struct ReportBytes: ~Copyable {
    let start: UnsafePointer<UInt8>
    let count: Int
    /// True when the bytes are a file mapping whose pages can be dropped and faulted back in.
    let isMapped: Bool

    /// Opens `file` (a link is followed to a regular file) of at most `maxBytes`.
    init(file: String, maxBytes: Int64) throws(FileRefusal) {
        var options = RegularFile.Options.named(maxBytes: maxBytes)
        let opened = try RegularFile.open(file, options: &options)
        let mapping =
            opened.size > 0 ? opened.withDescriptor { mmap(nil, Int(opened.size), PROT_READ, MAP_PRIVATE, $0, 0) } : nil
        if let mapping, mapping != UnsafeMutableRawPointer(bitPattern: -1) {
            // The reader goes front to back once: ask for read-ahead, and let the kernel drop pages behind.
            _ = madvise(mapping, Int(opened.size), MADV_SEQUENTIAL)
            start = UnsafePointer(mapping.assumingMemoryBound(to: UInt8.self))
            count = Int(opened.size)
            isMapped = true
            return
        }
        // Empty, or a file system that cannot map: read it (bounded as opened).
        let bytes = try opened.readAll()
        (start, count, isMapped) = (Self.copy(bytes), bytes.count, false)
    }

    /// A copy of `bytes` (the fuzz target's input), held like a file that could not be mapped.
    init(copying bytes: [UInt8]) { (start, count, isMapped) = (Self.copy(bytes), bytes.count, false) }

    private static func copy(_ bytes: [UInt8]) -> UnsafePointer<UInt8> {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
        buffer.initialize(from: bytes, count: bytes.count)
        return UnsafePointer(buffer)
    }

    deinit {
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: start), count)
        } else {
            start.deallocate()
        }
    }

    /// What the scanner calls to give back the pages it has read; nil when the bytes are not a mapping.
    var pageRelease: PageRelease? { isMapped ? PageRelease(start: start) : nil }
}

/// Gives back the pages of a mapping before an offset, whole pages and 16 MB at a time. They are clean
/// file pages: touching them again (an error message counting lines) reads them back from the page cache.
struct PageRelease {
    let start: UnsafePointer<UInt8>
    private var released = 0
    private static let step = 16 << 20
    private static let pageSize = Int(getpagesize())

    init(start: UnsafePointer<UInt8>) { self.start = start }

    mutating func release(before offset: Int) {
        let end = offset / Self.pageSize * Self.pageSize
        guard end - released >= Self.step else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: start + released), end - released, MADV_DONTNEED)
        released = end
    }
}
