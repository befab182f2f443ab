// Byte comparisons on names, for the classifier and the content sniffer: no strings built on the hot path.

extension UnsafeBufferPointer<UInt8> {
    /// Whether the name ends with `suffix`, ASCII letters compared case-insensitively.
    /// `suffix` must be lowercase ASCII.
    @inlinable public func hasSuffixIgnoringASCIICase(_ suffix: StaticString) -> Bool {
        let length = suffix.utf8CodeUnitCount
        guard length <= count else { return false }
        let bytes = suffix.utf8Start
        let start = count - length
        for index in 0..<length where asciiLowercased(self[start + index]) != bytes[index] { return false }
        return true
    }

    /// Whether the name starts with `prefix` exactly (case-sensitive).
    @inlinable public func hasPrefix(_ prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard length <= count else { return false }
        let bytes = prefix.utf8Start
        for index in 0..<length where self[index] != bytes[index] { return false }
        return true
    }
}

@inlinable @inline(__always) public func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
}
