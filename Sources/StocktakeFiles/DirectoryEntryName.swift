#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The name of a `readdir` record, read where the record holds it: the one way Stocktake reads `d_name`.
///
/// `d_name` is imported as a fixed-size array (256 bytes on glibc, 1,024 on Darwin), but the record ends after the
/// name's NUL, so copying the array by value reads past the record. These functions add the field's offset to the
/// record's address and read up to the NUL, which both systems guarantee. Public and `@inlinable` (not `package`):
/// the walk calls `name(of:)` once per entry, and only a public type's members inline across modules.
public enum DirectoryEntryName {
    /// The name in place: its first byte, NUL-terminated, and its length in bytes (without the NUL). Valid only
    /// until the next `readdir` or `closedir` on the same stream.
    @inlinable
    public static func name(of entry: UnsafeMutablePointer<dirent>) -> (start: UnsafePointer<CChar>, length: Int) {
        let start = (UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!).assumingMemoryBound(
            to: CChar.self)
        return (start, strlen(start))
    }

    /// A copy of the name's bytes (without the NUL).
    @inlinable
    public static func bytes(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        let (start, length) = name(of: entry)
        return Array(UnsafeRawBufferPointer(start: start, count: length))
    }

    /// Whether the name is `.` or `..` (the folder itself and its parent, which every listing holds).
    @inlinable
    public static func isDotOrDotDot(_ name: UnsafePointer<CChar>, length: Int) -> Bool {
        let dot = CChar(UInt8(ascii: "."))
        return (length == 1 && name[0] == dot) || (length == 2 && name[0] == dot && name[1] == dot)
    }
}
