/// Bytes as a dictionary key, hashed in one call over the buffer (`ArraySlice`'s own hashing feeds the hasher one
/// byte at a time, which dominates lookups of a million names or paths).
public struct ByteKey: Hashable, Sendable {
    public let bytes: ArraySlice<UInt8>

    public init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    public func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }

    public static func == (left: ByteKey, right: ByteKey) -> Bool { left.bytes.elementsEqual(right.bytes) }
}
