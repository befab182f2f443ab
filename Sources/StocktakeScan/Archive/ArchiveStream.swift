import CLibArchive
import Foundation
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct ArchiveHeader {
    /// The stored name, raw bytes (UTF-8 where the archive says so, else as stored); nil when it cannot be decoded.
    let name: [UInt8]?
    let type: EntryType
    /// The declared size (0 for folders and links).
    let size: Int64
    let modified: Int64
    let symlinkTarget: [UInt8]?
    let hardLinkTarget: [UInt8]?
    /// Extended-attribute names, from pax headers (`SCHILY.xattr.*`, `LIBARCHIVE.xattr.*`); values are not needed.
    let attributeNames: [[UInt8]]
}

/// A single pass over an archive through libarchive: headers in order, and each entry's data as it streams.
/// Only tar (ustar, pax, GNU) and zip, plain or through gzip, bzip2 or xz: no filter that runs an outside
/// program, no format whose reader is rarely exercised. Nothing is ever written to disk.
final class ArchiveStream {
    private let library: LibArchive
    private let archive: OpaquePointer
    private let file: RegularFile
    let path: String
    /// The archive file's size, what `ArchiveLimits` weighs its declared data against.
    var fileBytes: Int64 { file.size }
    /// This thread's UTF-8 names while the stream lives (see the shim); the stream never leaves its thread.
    private let locale: stocktake_archive_locale

    /// Opens the input `path` (a link to it is followed; FIFOs and devices are refused). Without libarchive, a file
    /// that starts as an archive throws `archiveReaderMissing`, any other `notADirectory`, as with the library.
    init(path: String) throws(ScanError) {
        self.path = path
        var options = RegularFile.Options.named(maxBytes: nil)
        do {
            file = try RegularFile.open(path, options: &options)
        } catch {
            throw .unreadableRoot(path: path, reason: "\(error)")
        }
        switch LibArchive.shared {
        case .success(let library):
            self.library = library
        case .failure(let missing):
            let start = (try? file.read(at: 0, count: 512)) ?? []
            guard ArchiveSignature.matches(start) else { throw .notADirectory(path) }
            throw .archiveReaderMissing(path: path, reason: missing.reason, remedy: missing.remedy)
        }
        locale = stocktake_archive_begin_utf8_names()
        guard let archive = library.readNew() else {
            stocktake_archive_end_utf8_names(locale)
            throw .unreadableRoot(path: path, reason: "out of memory")
        }
        self.archive = archive
        if let filter = library.missingFilter((try? file.read(at: 0, count: 8)) ?? []) {
            throw .unreadableRoot(
                path: path,
                reason:
                    "it is compressed with \(filter.rawValue), which the system's libarchive cannot decompress itself (stocktake never runs an outside program for it); give the archive uncompressed, or install a libarchive built with \(filter.rawValue)"
            )
        }
        guard library.enableReading(archive) else {
            throw .unreadableRoot(
                path: path, reason: "the system's libarchive refused to read zip and tar: " + errorText)
        }
        // macOS's libarchive folds `._` and `__MACOSX/` sidecars into its own metadata by default: keep them as
        // entries, so every platform reads the same archive the same way (unknown options are ignored).
        _ = library.setOptions(archive, "zip:!mac-ext")
        _ = library.setOptions(archive, "tar:!mac-ext")
        let status = file.withDescriptor { library.openFd(archive, $0, 64 << 10) }
        guard status == ARCHIVE_OK else {
            throw .unreadableRoot(
                path: path,
                reason:
                    "it is a file, not a container folder, and could not be read as an archive (zip, tar, tar.gz, tgz, tar.bz2, tar.xz): "
                    + errorText)
        }
    }

    deinit {
        _ = library.readFree(archive)
        stocktake_archive_end_utf8_names(locale)
    }

    var errorText: String {
        guard let text = library.errorString(archive) else { return "unknown archive error" }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
    }

    /// What the archive is, for the report: `zip`, `tar`; and its compression (`gzip`, `xz`, `bzip2`, `none`).
    var format: (format: String, compression: String) {
        let base = library.format(archive) & ARCHIVE_FORMAT_BASE_MASK
        let format = base == ARCHIVE_FORMAT_ZIP ? "zip" : base == ARCHIVE_FORMAT_TAR ? "tar" : "unknown"
        var compression = "none"
        if library.filterCount(archive) > 1, let name = library.filterName(archive, 0) {
            compression = String(cString: name)
        }
        return (format, compression)
    }

    /// The next header, nil at the end. A damaged or truncated archive throws: nothing after it can be trusted.
    func next() throws(ArchiveReadFailure) -> ArchiveHeader? {
        var entry: OpaquePointer?
        let status = library.nextHeader(archive, &entry)
        if status == ARCHIVE_EOF { return nil }
        // A warning (a name not convertible to the locale) leaves the header usable; anything worse does not.
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
            throw ArchiveReadFailure(fatal: true, message: errorText)
        }
        let library = library
        let type = type(entry)
        return ArchiveHeader(
            name: Self.name(library.entryPathname(entry)) { library.entryPathnameUTF8(entry) },
            type: type,
            size: library.entrySizeIsSet(entry) != 0 ? max(0, library.entrySize(entry)) : 0,
            modified: Int64(library.entryMtime(entry)),
            symlinkTarget: type == .symlink
                ? Self.name(library.entrySymlink(entry)) { library.entrySymlinkUTF8(entry) } : nil,
            hardLinkTarget: Self.name(library.entryHardlink(entry)) { library.entryHardlinkUTF8(entry) },
            attributeNames: attributeNames(entry))
    }

    /// Fills `buffer` from the current entry's data; the rest is skipped by the next `next()` (a seek, or decompression).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ArchiveReadFailure) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = library.readData(archive, buffer.baseAddress! + filled, buffer.count - filled)
            if count == 0 { break }
            guard count > 0 else { throw failure(status: Int32(count)) }
            filled += count
        }
        return filled
    }

    /// Streams the current entry's data through `body`; more than `limit` bytes (an understated size) throws.
    func stream(through buffer: UnsafeMutableRawBufferPointer, limit: Int64, _ body: (UnsafeRawBufferPointer) -> Void)
        throws(ArchiveReadFailure) -> Int64
    {
        var total: Int64 = 0
        while true {
            let count = library.readData(archive, buffer.baseAddress!, buffer.count)
            if count == 0 { return total }
            guard count > 0 else { throw failure(status: Int32(count)) }
            total += Int64(count)
            guard total <= limit else {
                throw ArchiveReadFailure(fatal: false, message: "holds more data than its header declares")
            }
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// As `lstat` would give it (libarchive's file types are POSIX's `S_IF*`); a hard link names a regular file.
    private func type(_ entry: OpaquePointer) -> EntryType {
        library.entryHardlink(entry) != nil ? .file : POSIX.entryType(mode: library.entryFiletype(entry))
    }

    private func failure(status: Int32) -> ArchiveReadFailure {
        ArchiveReadFailure(fatal: status == ARCHIVE_FATAL, message: errorText)
    }

    /// A name as UTF-8: ASCII as stored (converting costs a fifth of an audit at 200,000 entries), else libarchive's
    /// UTF-8 form (else the bytes as stored) composed (NFC): libarchive normalises declared-UTF-8 names to NFC on
    /// Linux but NFD on Apple's systems, and keeps no stored bytes, so composing gives the same bytes on both.
    static func name(_ stored: UnsafePointer<CChar>?, converted: () -> UnsafePointer<CChar>?) -> [UInt8]? {
        if let stored {
            let raw = UnsafeRawBufferPointer(start: stored, count: strlen(stored))
            if !raw.contains(where: { $0 >= 0x80 }) { return Array(raw) }
        }
        return bytes(converted() ?? stored).map(composed)
    }

    /// `bytes` in Unicode's composed form (NFC) when they are UTF-8; unchanged when they are not.
    static func composed(_ bytes: [UInt8]) -> [UInt8] {
        guard let text = PathText.text(validatingUTF8: bytes) else { return bytes }
        return Array(text.precomposedStringWithCanonicalMapping.utf8)
    }

    private static func bytes(_ text: UnsafePointer<CChar>?) -> [UInt8]? {
        guard let text else { return nil }
        return Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    private func attributeNames(_ entry: OpaquePointer) -> [[UInt8]] {
        guard library.entryXattrReset(entry) > 0 else { return [] }
        var names: [[UInt8]] = []
        var name: UnsafePointer<CChar>?
        var value: UnsafeRawPointer?
        var size = 0
        while library.entryXattrNext(entry, &name, &value, &size) == ARCHIVE_OK {
            if let bytes = Self.bytes(name) { names.append(bytes) }
        }
        return names
    }
}

/// Why the archive could not be read on: `fatal` when it is damaged (truncated, corrupt, no format this tool
/// reads), else only one entry's data is unread (an unsupported method, encryption, a bad checksum).
struct ArchiveReadFailure: Error {
    let fatal: Bool
    let message: String

    /// On a second pass over `archive`, a fatal failure (it changed or broke since the first) ends the pass.
    func throwIfFatal(archive: String) throws(ScanError) {
        if fatal { throw .unreadableRoot(path: archive, reason: "the archive is damaged or truncated: \(message)") }
    }
}
