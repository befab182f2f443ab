import StocktakeModel

/// Two or more files whose contents are byte-for-byte identical. Hard links of one inode appear once
/// (as the name the walk counted), so a set is never just several names of the same bytes on disk.
public struct IdenticalFiles: Sendable, Equatable {
    /// Entry indices, in path order.
    public let members: [Int32]
    /// Apparent size of each copy.
    public let size: Int64
    /// SHA-256 of the content.
    public let digest: ContentDigest
}

/// A SHA-256 digest held as four words, so grouping by it allocates nothing.
public struct ContentDigest: Sendable, Hashable, CustomStringConvertible {
    public let words: (UInt64, UInt64, UInt64, UInt64)

    /// The 32 digest bytes, in order.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var values: [UInt64] = []
        var value: UInt64 = 0
        for (offset, byte) in bytes.enumerated() {
            value = value << 8 | UInt64(byte)
            if offset % 8 == 7 {
                values.append(value)
                value = 0
            }
        }
        words = (values[0], values[1], values[2], values[3])
    }

    /// Lowercase hexadecimal, as `sha256sum` prints it.
    public var description: String {
        [words.0, words.1, words.2, words.3].map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    public static func == (a: ContentDigest, b: ContentDigest) -> Bool { a.words == b.words }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}

/// What the duplicate finder found, and what it could not read.
public struct DuplicateSearch: Sendable {
    /// Sorted by the path of each set's first member.
    public let sets: [IdenticalFiles]
    /// Candidates that vanished, changed since the walk or refused reading: left out of every set.
    public let issues: [ScanIssue]
}
