#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open regular file, the one way Stocktake opens a file to read it. A FIFO, socket or device is never read (a
/// FIFO blocks, `/dev/zero` never ends): the type is checked before opening, the file opened with `O_NONBLOCK` and
/// checked again with `fstat`, which closes the race. Inside a container a link is never followed. One thread.
package final class RegularFile {
    package struct Options: Sendable {
        /// True for files the user names (reports, configs, baselines); false inside a container.
        package var followsLinks: Bool
        /// A larger file is refused (`FileRefusal.tooLarge`); nil: no limit (the caller reads a prefix).
        package var maxBytes: Int64?
        /// Linux: leave the access time as it was. The kernel refuses that for other owners' files: then `open` clears
        /// this and tries again, and the caller's later opens skip the refused attempt.
        package var keepsAccessTime: Bool
        /// False when the caller has just seen a regular file there (the walk's hot path); `fstat` still refuses a swap.
        package var checksTypeBeforeOpening: Bool

        package init(
            followsLinks: Bool, maxBytes: Int64?, keepsAccessTime: Bool = false, checksTypeBeforeOpening: Bool = true
        ) {
            (self.followsLinks, self.maxBytes) = (followsLinks, maxBytes)
            (self.keepsAccessTime, self.checksTypeBeforeOpening) = (keepsAccessTime, checksTypeBeforeOpening)
        }

        package static func insideContainer(maxBytes: Int64?) -> Options {
            Options(followsLinks: false, maxBytes: maxBytes, keepsAccessTime: true)
        }

        package static func named(maxBytes: Int64?) -> Options {
            Options(followsLinks: true, maxBytes: maxBytes)
        }
    }

    /// Private: a caller holding only the number could see it closed and reused; `withDescriptor` keeps it alive.
    private let descriptor: Int32
    /// `st_size` when opened, and what `fstat` said of the open file (the walk takes it as the entry's one stat).
    package let size: Int64
    package let status: stat
    private let maxBytes: Int64?

    private init(descriptor: Int32, status: stat, maxBytes: Int64?) {
        (self.descriptor, self.status, self.maxBytes) = (descriptor, status, maxBytes)
        size = Int64(status.st_size)
    }

    deinit { close(descriptor) }

    package static func open(_ path: String, options: inout Options) throws(FileRefusal) -> RegularFile {
        try open(options: &options, status: { $0.followsLinks ? stat(path, &$1) : lstat(path, &$1) }) {
            systemOpen(path, $0)
        }
    }

    /// Opens `name` (one path component) in the open folder `directory`.
    package static func open(_ name: UnsafePointer<CChar>, in directory: Int32, options: inout Options)
        throws(FileRefusal) -> RegularFile
    {
        try open(
            options: &options, status: { fstatat(directory, name, &$1, $0.followsLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
        ) {
            openat(directory, name, $0)
        }
    }

    private static func open(
        options: inout Options, status: (Options, inout stat) -> Int32, opening: (Int32) -> Int32
    ) throws(FileRefusal) -> RegularFile {
        var info = stat()
        if options.checksTypeBeforeOpening {
            guard status(options, &info) == 0 else { throw .system(SystemError.current) }
            if let refusal = FileRefusal(mode: info.st_mode) { throw refusal }
        }
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (options.followsLinks ? 0 : O_NOFOLLOW)
        var descriptor =
            options.keepsAccessTime && noAccessTimeFlag != 0 ? opening(flags | noAccessTimeFlag) : opening(flags)
        if descriptor < 0 && options.keepsAccessTime && noAccessTimeFlag != 0 && SystemError.current == EPERM {
            options.keepsAccessTime = false
            descriptor = opening(flags)
        }
        guard descriptor >= 0 else {
            let code = SystemError.current
            // O_NOFOLLOW on a link: Linux says ELOOP, the BSDs EMLINK or EFTYPE.
            if !options.followsLinks && (code == ELOOP || code == EMLINK) { throw .symbolicLink }
            throw .system(code)
        }
        var kept = false
        defer { if !kept { close(descriptor) } }
        guard fstat(descriptor, &info) == 0 else { throw .system(SystemError.current) }
        if let refusal = FileRefusal(mode: info.st_mode) { throw refusal }
        let size = Int64(info.st_size)
        if let limit = options.maxBytes, size > limit { throw .tooLarge(bytes: size, limit: limit) }
        kept = true
        return RegularFile(descriptor: descriptor, status: info, maxBytes: options.maxBytes)
    }

    /// Linux's O_NOATIME; 0 where there is none.
    package static var noAccessTimeFlag: Int32 {
        #if os(Linux)
            0o1_000_000
        #else
            0
        #endif
    }

    /// Calls `body` with the open descriptor (for `pread`, `mmap`, `flistxattr`), valid throughout.
    package func withDescriptor<R, Failure: Error>(_ body: (Int32) throws(Failure) -> R) throws(Failure) -> R {
        try body(descriptor)
    }

    package func readPrefix(into buffer: UnsafeMutableRawBufferPointer) throws(FileRefusal) -> Int {
        try read(into: buffer, at: 0)
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file), for formats read by their offsets.
    package func read(at offset: Int64, count: Int) throws(FileRefusal) -> [UInt8] {
        guard offset >= 0, count > 0, offset < size else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(clamping: min(Int64(count), size - offset)))
        let filled = try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(FileRefusal) in try read(into: buffer, at: offset) }
        }.get()
        return Array(bytes.prefix(filled))
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(FileRefusal) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var total = 0
        while total < buffer.count {
            let count = pread(descriptor, base + total, buffer.count - total, off_t(offset + Int64(total)))
            if count < 0 {
                if SystemError.current == EINTR { continue }
                throw .system(SystemError.current)
            }
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// The whole file, up to the limit it was opened with (else `fstat`'s size); a byte past it notices growth.
    package func readAll() throws(FileRefusal) -> [UInt8] {
        let limit = maxBytes ?? size
        var bytes = [UInt8](repeating: 0, count: Int(clamping: min(size, limit)) + 1)
        var filled = 0
        while true {
            let count = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(FileRefusal) in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: Int64(filled))
                }
            }.get()
            filled += count
            guard filled == bytes.count else { break }  // the end of the file, within the limit
            guard Int64(filled) <= limit else { throw .grew(limit: limit) }
            // It grew since fstat and may still fit: make room, up to one byte past the limit.
            bytes.append(
                contentsOf: repeatElement(0, count: Int(clamping: min(Int64(filled), limit - Int64(filled) + 1))))
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}

// Inside the type, `open` would resolve to its own method.
@inline(__always)
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.open(path, flags)
    #else
        Darwin.open(path, flags)
    #endif
}
