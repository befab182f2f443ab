import CStocktakeSystem
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the extended attributes of an entry could not be listed.
public struct ExtendedAttributeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) { self.code = code }

    public var description: String {
        "cannot list extended attributes: \(SystemError.text(code)) (errno \(code))"
    }
}

/// Listing an entry's extended attributes without following symlinks.
public enum ExtendedAttributes {
    /// Attribute names of the entry itself, never following a symlink in its last component (links in earlier
    /// components are followed). [] when there are none or the file system does not support them.
    public static func names(atPath path: UnsafePointer<CChar>) throws(ExtendedAttributeError) -> [[UInt8]] {
        try names { buffer, size in listNames(path, buffer, size) }
    }

    /// Attribute names of an open file: no path lookup, for files the walk has open anyway. Darwin's
    /// `flistxattr(fd, namebuff, size, options)` takes options (0 here; `bsd/sys/xattr.h`), Linux's does not.
    public static func names(fileDescriptor fd: Int32) throws(ExtendedAttributeError) -> [[UInt8]] {
        try names { buffer, size in
            #if os(Linux)
                flistxattr(fd, buffer, size)
            #else
                flistxattr(fd, buffer, size, 0)
            #endif
        }
    }

    /// Attribute names of the entry `name` in the folder open as `folder`, through a descriptor opened relative to
    /// it without following a link (`entryOpenFlags`): no path is walked, so neither PATH_MAX (1,024 bytes on
    /// Darwin) nor a link in an earlier component comes into it. nil when the entry cannot be opened that way (mode
    /// 000, a socket, gone since listed): the caller then asks by path. Never call it for a FIFO or a device:
    /// opening one is not harmless.
    public static func names(of name: UnsafePointer<CChar>, inFolder folder: Int32) throws(ExtendedAttributeError)
        -> [[UInt8]]?
    {
        let fd = openat(folder, name, entryOpenFlags)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return try names(fileDescriptor: fd)
    }

    #if canImport(Darwin)
        /// `O_SYMLINK` opens a link as itself, so `flistxattr` lists the link's own attributes. Not `O_NOFOLLOW` as
        /// well: XNU then refuses a link with ELOOP whatever `O_SYMLINK` says (`vn_authorize_open_existing`).
        static let entryOpenFlags = O_RDONLY | O_SYMLINK | O_NONBLOCK | O_CLOEXEC
    #else
        /// Linux cannot open a link itself for `flistxattr` (an `O_PATH` descriptor is refused), so a link fails
        /// with ELOOP here and its caller asks by path (`llistxattr`, which does not follow it).
        static let entryOpenFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
    #endif

    private static func names(
        using listNames: (UnsafeMutablePointer<CChar>?, Int) -> Int
    ) throws(ExtendedAttributeError) -> [[UInt8]] {
        // Most files have no attributes or a short list: one call into a small stack buffer settles it. A longer
        // list: ask for its size, then read it; again if it grew in between.
        var capacity = 512
        for _ in 0..<9 {
            let settled = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
                let length = listNames(buffer.baseAddress, buffer.count)
                return outcome(of: length, errorCode: errno, buffer: UnsafeBufferPointer(buffer))
            }
            if let settled { return try settled.get() }
            let size = listNames(nil, 0)
            if size <= 0, let settled = outcome(of: size, errorCode: errno) { return try settled.get() }
            capacity = max(size, 1)
        }
        throw ExtendedAttributeError(code: ERANGE)
    }

    /// The names for a successful call, [] for "not supported here", an error otherwise, or nil
    /// when the buffer was too small (ERANGE) and the caller should retry with a larger one.
    private static func outcome(
        of length: Int, errorCode: Int32, buffer: UnsafeBufferPointer<CChar> = .init(start: nil, count: 0)
    ) -> Result<[[UInt8]], ExtendedAttributeError>? {
        if length >= 0 { return .success(splitNames(buffer, length: min(length, buffer.count))) }
        if errorCode == ERANGE { return nil }
        if isUnsupported(errorCode) { return .success([]) }
        return .failure(ExtendedAttributeError(code: errorCode))
    }

    /// Whether a listing that failed with `code` only means the entry of `type` holds no attributes. XNU lists
    /// attributes of files, folders, links, FIFOs and sockets only and refuses a device by its type with EPERM,
    /// not ENOTSUP (`XATTR_VNODE_SUPPORTED` in `bsd/sys/xattr.h`). EPERM from any other type is a real refusal
    /// (a sandbox or security policy): its backup state stays unknown.
    static func meansNoAttributes(_ code: Int32, type: EntryType) -> Bool {
        isUnsupported(code) || (code == EPERM && (type == .characterDevice || type == .blockDevice))
    }

    private static func isUnsupported(_ code: Int32) -> Bool {
        #if canImport(Darwin)
            return code == ENOTSUP || code == EOPNOTSUPP
        #else
            return code == EOPNOTSUPP  // ENOTSUP is the same value on Linux
        #endif
    }

    /// The list is NUL-terminated names back to back.
    private static func splitNames(_ buffer: UnsafeBufferPointer<CChar>, length: Int) -> [[UInt8]] {
        guard length > 0, let base = buffer.baseAddress else { return [] }
        // An unterminated last name counts too.
        return UnsafeRawBufferPointer(start: base, count: length).split(separator: 0).map(Array.init)
    }

    private static func listNames(_ path: UnsafePointer<CChar>, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int)
        -> Int
    {
        #if os(Linux)
            return llistxattr(path, buffer, size)
        #else
            return listxattr(path, buffer, size, XATTR_NOFOLLOW)
        #endif
    }
}
