#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The name of a `readdir` record, read in place: `d_name` is imported as a fixed-size array, but the record ends
/// after the name's NUL, so copying the array reads past it. Public and `@inlinable` (not `package`): the walk calls
/// `name(of:)` once per entry, and only a public type's members inline across modules.
public enum DirectoryEntryName {
    /// The NUL-terminated name and its length, valid until the next `readdir` or `closedir` on the stream.
    @inlinable
    public static func name(of entry: UnsafeMutablePointer<dirent>) -> (start: UnsafePointer<CChar>, length: Int) {
        let start = (UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(
            to: CChar.self)
        return (start, strlen(start))
    }

    @inlinable
    public static func bytes(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        let (start, length) = name(of: entry)
        return Array(UnsafeRawBufferPointer(start: start, count: length))
    }

    @inlinable
    public static func isDotOrDotDot(_ name: UnsafePointer<CChar>, length: Int) -> Bool {
        let dot = CChar(UInt8(ascii: "."))
        return (length == 1 && name[0] == dot) || (length == 2 && name[0] == dot && name[1] == dot)
    }
}
