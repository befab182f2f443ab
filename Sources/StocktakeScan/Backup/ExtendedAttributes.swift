import CStocktakeSystem
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

public struct ExtendedAttributeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) { self.code = code }

    public var description: String {
        "cannot list extended attributes: \(SystemError.text(code)) (errno \(code))"
    }
}

/// Listing an entry's extended attributes without following symlinks.
public enum ExtendedAttributes {
    /// The entry's own names (a link in its last component is not followed); [] where the file system has none.
    public static func names(atPath path: UnsafePointer<CChar>) throws(ExtendedAttributeError) -> [[UInt8]] {
        try names { buffer, size in
            #if os(Linux)
                llistxattr(path, buffer, size)
            #else
                listxattr(path, buffer, size, XATTR_NOFOLLOW)
            #endif
        }
    }

    /// The names of an open file: no path lookup. Darwin's `flistxattr` takes options (0 here), Linux's does not.
    public static func names(fileDescriptor fd: Int32) throws(ExtendedAttributeError) -> [[UInt8]] {
        try names { buffer, size in
            #if os(Linux)
                flistxattr(fd, buffer, size)
            #else
                flistxattr(fd, buffer, size, 0)
            #endif
        }
    }

    /// The names of `name` in the open `folder`, through a descriptor opened without following a link: no path is
    /// walked, so neither PATH_MAX nor a link on the way comes into it. nil when it cannot be opened (mode 000, a
    /// socket): the caller asks by path. Never call it for a FIFO or a device: opening one is not harmless.
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

    /// The names, [] for "not supported here", an error, or nil when the buffer was too small (ERANGE: retry).
    private static func outcome(
        of length: Int, errorCode: Int32, buffer: UnsafeBufferPointer<CChar> = .init(start: nil, count: 0)
    ) -> Result<[[UInt8]], ExtendedAttributeError>? {
        // NUL-terminated names back to back; an unterminated last name counts too.
        if length >= 0 {
            return .success(UnsafeRawBufferPointer(buffer).prefix(length).split(separator: 0).map(Array.init))
        }
        if errorCode == ERANGE { return nil }
        if isUnsupported(errorCode) { return .success([]) }
        return .failure(ExtendedAttributeError(code: errorCode))
    }

    /// Whether a failed listing only means the entry holds no attributes. XNU refuses a device by its type with EPERM,
    /// not ENOTSUP (`XATTR_VNODE_SUPPORTED`); EPERM for any other type is a real refusal (a sandbox, a policy).
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
}
