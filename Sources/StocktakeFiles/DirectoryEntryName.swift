#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The name of a `readdir` record, read where the record holds it. The one way Stocktake reads `d_name`.
///
/// `d_name` is imported as a fixed-size array: 256 bytes on glibc, 1,024 on Darwin (`char d_name[__DARWIN_MAXPATHLEN]`,
/// `__DARWIN_MAXPATHLEN` 1024, in XNU's `bsd/sys/dirent.h`, the 64-bit-inode `struct dirent` every 64-bit macOS
/// process gets). The record `readdir` returns ends after the name's NUL (its `d_reclen`, rounded up), so copying the
/// whole array by value (`withUnsafeBytes(of: entry.pointee.d_name)`) reads past the record, into whatever the
/// library's buffer holds next, or past its end. These functions only add the field's offset to the record's address
/// and read up to the NUL (`strlen`), which both systems guarantee ("All names are guaranteed null terminated",
/// `dirent.h`). Neither generic nor taking a closure, and public (the only public type of this module): the walk
/// calls `name(of:)` once per entry, and Swift inlines across modules only the `@inlinable` members of a public type
/// (not those of a `package` one; docs/design.md, "Access levels", says the same of the per-entry modules).
public enum DirectoryEntryName {
    /// The name in place: its first byte, NUL-terminated, and its length in bytes (without the NUL). Valid only
    /// until the next `readdir` or `closedir` on the same stream. The field's offset (19 on glibc, after `d_ino`,
    /// `d_off`, `d_reclen`, `d_type`; 21 on Darwin, after `d_ino`, `d_seekoff`, `d_reclen`, `d_namlen`, `d_type`,
    /// `__DARWIN_STRUCT_DIRENTRY`) is a constant once optimised.
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
