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
    /// The `errno` the system reported.
    public let code: Int32

    public init(code: Int32) { self.code = code }

    public var description: String {
        "cannot list extended attributes: \(SystemError.text(code)) (errno \(code))"
    }
}

/// Listing an entry's extended attributes without following symlinks.
public enum ExtendedAttributes {
    /// Attribute names of the entry itself, never following a symlink in its last component (Linux
    /// `llistxattr`, macOS `listxattr` with `XATTR_NOFOLLOW`, 0x0001 in XNU `bsd/sys/xattr.h`; links in
    /// earlier components are followed, and a path past PATH_MAX fails with ENAMETOOLONG). [] when there
    /// are none or the file system does not support them; other failures throw with their errno.
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

    /// Attribute names of the entry `name` in the folder open as `folder`, read through a descriptor the entry
    /// is opened as, relative to that folder's descriptor, never following a link (`entryOpenFlags`). No path is
    /// walked: neither PATH_MAX (1,024 bytes on Darwin, `sys/syslimits.h`) nor a link in an earlier component can
    /// come into it. nil when the entry cannot be opened that way (mode 000 and not ours to read, a socket, an
    /// entry gone since it was listed): the caller then asks by path (`names(atPath:)`), as it did before there
    /// was this route. (Linux lists names without read permission; Darwin asks for it either way, since
    /// `vn_listxattr` authorizes `KAUTH_VNODE_READ_EXTATTRIBUTES`, which POSIX modes grant only with `r`, so a
    /// mode-000 file fails there with EACCES by path too, as it always did.) Never call it for a FIFO or a
    /// device: opening one is not harmless.
    public static func names(of name: UnsafePointer<CChar>, inFolder folder: Int32) throws(ExtendedAttributeError)
        -> [[UInt8]]?
    {
        let fd = openat(folder, name, entryOpenFlags)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return try names(fileDescriptor: fd)
    }

    #if canImport(Darwin)
        /// XNU `bsd/sys/fcntl.h`: `O_RDONLY` 0x0, `O_SYMLINK` 0x00200000 ("allow open of a symlink": a link is
        /// opened as itself, so `flistxattr` lists the link's own attributes), `O_NONBLOCK` 0x4, `O_CLOEXEC`
        /// 0x01000000. Not `O_NOFOLLOW` (0x100): `O_SYMLINK` already keeps the last component from being followed
        /// (`vn_open_auth` in `bsd/vfs/vfs_vnops.c` clears `FOLLOW` for either flag), and with `O_NOFOLLOW` as well
        /// `vn_authorize_open_existing` (`bsd/vfs/vfs_subr.c`) refuses a link with ELOOP whatever `O_SYMLINK` says.
        /// The name is one component, so no earlier component can be a link.
        static let entryOpenFlags = O_RDONLY | O_SYMLINK | O_NONBLOCK | O_CLOEXEC
    #else
        /// Linux cannot open a link itself for `flistxattr` (an `O_PATH` descriptor is refused), so a link fails
        /// with ELOOP here and its caller asks by path (`llistxattr`, which does not follow it).
        static let entryOpenFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
    #endif

    private static func names(
        using listNames: (UnsafeMutablePointer<CChar>?, Int) -> Int
    ) throws(ExtendedAttributeError) -> [[UInt8]] {
        // Most files have no attributes or a short list: one call into a stack buffer settles it.
        let first: Result<[[UInt8]], ExtendedAttributeError>? = withUnsafeTemporaryAllocation(
            of: CChar.self, capacity: stackBufferSize
        ) { buffer in
            let length = listNames(buffer.baseAddress, buffer.count)
            return outcome(of: length, errorCode: errno, buffer: UnsafeBufferPointer(buffer))
        }
        if let first { return try first.get() }
        // Longer list: ask for its size, then read it; retry if it grew in between.
        for _ in 0..<maxAttempts {
            let size = listNames(nil, 0)
            if size <= 0 {
                guard
                    let settled = outcome(of: size, errorCode: errno, buffer: UnsafeBufferPointer(start: nil, count: 0))
                else { continue }
                return try settled.get()
            }
            var buffer = [CChar](repeating: 0, count: size)
            let settled = buffer.withUnsafeMutableBufferPointer { buffer in
                let length = listNames(buffer.baseAddress, buffer.count)
                return outcome(of: length, errorCode: errno, buffer: UnsafeBufferPointer(buffer))
            }
            if let settled { return try settled.get() }
        }
        throw ExtendedAttributeError(code: ERANGE)
    }

    private static let stackBufferSize = 512
    private static let maxAttempts = 8

    /// The names for a successful call, [] for "not supported here", an error otherwise, or nil
    /// when the buffer was too small (ERANGE) and the caller should retry with a larger one.
    private static func outcome(
        of length: Int, errorCode: Int32, buffer: UnsafeBufferPointer<CChar>
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
        let bytes = UnsafeRawBufferPointer(start: base, count: length)
        var names: [[UInt8]] = []
        var start = 0
        for index in 0..<length where bytes[index] == 0 {
            if index > start { names.append(Array(bytes[start..<index])) }
            start = index + 1
        }
        if start < length { names.append(Array(bytes[start..<length])) }  // unterminated last name
        return names
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
