import StocktakeModel

// Bounds-checked reads over untrusted bytes: nil past the end, never a trap.

extension UnsafeRawBufferPointer {
    @inline(__always) func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < count else { return nil }
        return self[offset]
    }

    @inline(__always) func bigEndianUInt16(at offset: Int) -> UInt16? { bigEndian(at: offset) }
    @inline(__always) func bigEndianUInt32(at offset: Int) -> UInt32? { bigEndian(at: offset) }
    @inline(__always) func bigEndianUInt64(at offset: Int) -> UInt64? { bigEndian(at: offset) }

    @inline(__always) private func bigEndian<T: FixedWidthInteger>(at offset: Int) -> T? {
        guard offset >= 0, offset <= count &- MemoryLayout<T>.size else { return nil }
        return loadUnaligned(fromByteOffset: offset, as: T.self).bigEndian
    }

    /// Whether `needle` occurs anywhere in these bytes (naive search: buffers here are ~100 bytes).
    func contains(_ needle: StaticString) -> Bool {
        stride(from: 0, through: count - needle.utf8CodeUnitCount, by: 1).contains { matches(needle, at: $0) }
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
        count - offset == literal.utf8CodeUnitCount && UnsafeRawBufferPointer(self).matches(literal, at: offset)
    }
}

extension ArraySlice<UInt8> {
    /// Four or eight bytes at `offset` (an index of the slice's base), in either byte order; the caller checks the
    /// bounds.
    package func uint32(at offset: Int, bigEndian: Bool) -> UInt32 { integer(at: offset, bigEndian: bigEndian) }
    package func uint64(at offset: Int, bigEndian: Bool) -> UInt64 { integer(at: offset, bigEndian: bigEndian) }

    private func integer<T: FixedWidthInteger>(at offset: Int, bigEndian: Bool) -> T {
        let bytes = self[offset..<(offset + MemoryLayout<T>.size)]
        return bigEndian ? bytes.reduce(0) { $0 << 8 | T($1) } : bytes.reversed().reduce(0) { $0 << 8 | T($1) }
    }
}
