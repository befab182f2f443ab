import StocktakeModel

// Bounds-checked reads over untrusted bytes. Every accessor returns nil instead of reading past the
// end, so parsers can chain them with `guard let` and never trap on short or hostile input.

extension UnsafeRawBufferPointer {
    @inline(__always) func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < count else { return nil }
        return self[offset]
    }

    @inline(__always) func bigEndianUInt16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= count &- 2 else { return nil }
        return loadUnaligned(fromByteOffset: offset, as: UInt16.self).bigEndian
    }

    @inline(__always) func bigEndianUInt32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= count &- 4 else { return nil }
        return loadUnaligned(fromByteOffset: offset, as: UInt32.self).bigEndian
    }

    @inline(__always) func bigEndianUInt64(at offset: Int) -> UInt64? {
        guard offset >= 0, offset <= count &- 8 else { return nil }
        return loadUnaligned(fromByteOffset: offset, as: UInt64.self).bigEndian
    }

    /// Whether `needle` occurs anywhere in these bytes (naive search: buffers here are ~100 bytes).
    func contains(_ needle: StaticString) -> Bool {
        let length = needle.utf8CodeUnitCount
        guard length > 0, length <= count else { return length == 0 }
        let first = needle.utf8Start.pointee
        var start = 0
        while start <= count - length {
            if self[start] == first, matches(needle, at: start) { return true }
            start += 1
        }
        return false
    }

    /// Whether the bytes at `offset` are exactly `literal`.
    func matches(_ literal: StaticString, at offset: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard offset >= 0, offset <= count &- length else { return false }
        let bytes = literal.utf8Start
        for index in 0..<length where self[offset + index] != bytes[index] { return false }
        return true
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes from `offset` to the end are exactly `literal` (case-sensitive).
    package func isEqual(to literal: StaticString, from offset: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard offset >= 0, offset <= count, count - offset == length else { return false }
        let bytes = literal.utf8Start
        for index in 0..<length where self[offset + index] != bytes[index] { return false }
        return true
    }
}

extension ArraySlice<UInt8> {
    /// Four bytes at `offset` (an index of the slice's base), in either byte order; the caller checks the bounds.
    package func uint32(at offset: Int, bigEndian: Bool) -> UInt32 {
        let bytes = self[offset..<(offset + 4)]
        return bigEndian
            ? bytes.reduce(0) { $0 << 8 | UInt32($1) } : bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Eight bytes at `offset`, in either byte order; the caller checks the bounds.
    package func uint64(at offset: Int, bigEndian: Bool) -> UInt64 {
        let bytes = self[offset..<(offset + 8)]
        return bigEndian
            ? bytes.reduce(0) { $0 << 8 | UInt64($1) } : bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
