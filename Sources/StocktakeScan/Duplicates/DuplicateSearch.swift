import StocktakeModel

/// Two or more files whose contents are identical; hard links of one inode appear once (the name the walk counted).
public struct IdenticalFiles: Sendable, Equatable {
    /// Entry indices, in path order.
    public let members: [Int32]
    /// Apparent size of each copy.
    public let size: Int64
    public let digest: ContentDigest
}

/// What identical files share: grouping by it gathers each set.
struct SizeAndDigest: Hashable {
    let size: Int64
    let digest: ContentDigest
}

/// A SHA-256 digest held as four words, so grouping by it allocates nothing.
public struct ContentDigest: Sendable, Hashable, CustomStringConvertible {
    let words: SIMD4<UInt64>

    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var words = SIMD4<UInt64>()
        for (offset, byte) in bytes.enumerated() { words[offset / 8] = words[offset / 8] << 8 | UInt64(byte) }
        self.words = words
    }

    /// Lowercase hexadecimal, as `sha256sum` prints it.
    public var description: String {
        (0..<4).map { String(words[$0], radix: 16) }.map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
    }
}

/// What the duplicate finder found, and what it could not read.
public struct DuplicateSearch: Sendable {
    /// Sorted by the path of each set's first member.
    public let sets: [IdenticalFiles]
    /// Candidates that vanished, changed since the walk or refused reading: left out of every set.
    public let issues: [ScanIssue]
}
