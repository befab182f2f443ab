import CStocktakeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import StocktakeFiles

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
    /// Attribute names of the entry itself, never following a symlink (Linux `llistxattr`, macOS
    /// `listxattr` with `XATTR_NOFOLLOW`). [] when there are none or the file system does not
    /// support them; other failures throw with their errno.
    public static func names(atPath path: UnsafePointer<CChar>) throws(ExtendedAttributeError) -> [[UInt8]] {
        try names { buffer, size in listNames(path, buffer, size) }
    }

    /// Attribute names of an open file: no path lookup, for files the walk has open anyway.
    public static func names(fileDescriptor fd: Int32) throws(ExtendedAttributeError) -> [[UInt8]] {
        try names { buffer, size in
            #if os(Linux)
                flistxattr(fd, buffer, size)
            #else
                flistxattr(fd, buffer, size, 0)
            #endif
        }
    }

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
                guard let settled = outcome(of: size, errorCode: errno, buffer: UnsafeBufferPointer(start: nil, count: 0))
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

    private static func listNames(_ path: UnsafePointer<CChar>, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int {
        #if os(Linux)
            return llistxattr(path, buffer, size)
        #else
            return listxattr(path, buffer, size, XATTR_NOFOLLOW)
        #endif
    }
}
