#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one `report.json`. A regular file is mapped, not copied: its pages are clean, come from
/// the page cache, and can be given back once read (`PageRelease`), so a 300 MB report does not
/// cost 300 MB of memory. Anything else (a pipe, as `stocktake diff <(…)` gives) is read into memory.
struct ReportBytes: ~Copyable {
    let start: UnsafePointer<UInt8>
    let count: Int
    /// True when the bytes are a file mapping whose pages can be dropped and faulted back in.
    let isMapped: Bool

    /// Opens `file`; failures come back as what the user should read (errno text).
    init(file: String) throws(ReportBytesFailure) {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReportBytesFailure(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ReportBytesFailure(errno) }
        if status.st_mode & S_IFMT == S_IFDIR { throw ReportBytesFailure(EISDIR) }
        if status.st_mode & S_IFMT == S_IFREG, status.st_size > 0,
            let mapping = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0),
            mapping != UnsafeMutableRawPointer(bitPattern: -1)
        {
            // The reader goes front to back once: ask for read-ahead, and let the kernel drop pages behind.
            _ = madvise(mapping, Int(status.st_size), MADV_SEQUENTIAL)
            start = UnsafePointer(mapping.assumingMemoryBound(to: UInt8.self))
            count = Int(status.st_size)
            isMapped = true
            return
        }
        (start, count) = try Self.readAll(descriptor)
        isMapped = false
    }

    /// A copy of `bytes`, held like a pipe's.
    init(copying bytes: [UInt8]) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
        buffer.initialize(from: bytes, count: bytes.count)
        (start, count, isMapped) = (UnsafePointer(buffer), bytes.count, false)
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

    /// Reads until end of file into memory that `deinit` frees.
    private static func readAll(_ descriptor: Int32) throws(ReportBytesFailure) -> (UnsafePointer<UInt8>, Int) {
        var capacity = 1 << 16
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        var filled = 0
        while true {
            if filled == capacity {
                let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                larger.update(from: buffer, count: filled)
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
            let got = readBytes(descriptor, buffer + filled, capacity - filled)
            if got < 0 {
                if errno == EINTR { continue }
                let code = errno
                buffer.deallocate()
                throw ReportBytesFailure(code)
            }
            if got == 0 { break }
            filled += got
        }
        return (UnsafePointer(buffer), filled)
    }
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

/// Why the bytes could not be had: the system's words for it.
struct ReportBytesFailure: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var message: String { String(cString: strerror(code)) }
}

// `read` inside the type would resolve to something else.
@inline(__always)
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}
