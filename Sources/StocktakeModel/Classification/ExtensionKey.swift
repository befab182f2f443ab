/// A file-name extension of at most 16 ASCII bytes, lowercased and packed into two integers so a
/// lookup compares integers instead of building strings (this runs once per file).
struct ExtensionKey: Equatable, Sendable {
    static let maxLength = 16

    private let low: UInt64
    private let high: UInt64
    private let length: Int

    /// The lowercased extension, or nil when it is too long to be one we know.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
        let length = bytes.count - start
        guard start >= 0, length > 0, length <= Self.maxLength else { return nil }
        var low: UInt64 = 0
        var high: UInt64 = 0
        for index in 0..<length {
            let byte = UInt64(asciiLowercased(bytes[start + index]))
            if index < 8 { low |= byte << (8 * UInt64(index)) } else { high |= byte << (8 * UInt64(index - 8)) }
        }
        self.low = low
        self.high = high
        self.length = length
    }

    /// A key for a lowercase literal from the extension table.
    init(_ literal: StaticString) {
        let key = literal.withUTF8Buffer { ExtensionKey($0, from: 0) }
        guard let key else { preconditionFailure("extension literal longer than \(Self.maxLength) bytes: \(literal)") }
        self = key
    }
}
