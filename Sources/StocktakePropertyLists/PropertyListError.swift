import StocktakeModel

/// Why a property list could not be read: the format, the place (object, offset or line) and what was wrong.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    /// Messages quote the hostile file: control characters are written out (`\x1b`), keeping one line of plain text.
    public init(_ message: String) { self.message = VisibleText.render(message, as: .message) }

    public var description: String { message }

    static func binary(_ message: String) -> PropertyListError { PropertyListError("binary plist: " + message) }

    static func xml(_ message: String) -> PropertyListError { PropertyListError("XML plist: " + message) }
}

/// Limits that keep a hostile plist from exhausting the stack, the heap or the CPU.
enum PropertyListLimits {
    /// Deepest nesting of arrays and dictionaries accepted.
    static let maxDepth = 64
    /// Most values one document may decode to: shared references let a small file describe a huge tree.
    static let maxValues = 1_000_000
    /// Most bytes of strings and data a binary plist of `fileBytes` may decode to: 1.5 times its size (UTF-16 to
    /// UTF-8), a few times more for shared keys; beyond, references point at one object again and again.
    static func maxDecodedBytes(fileBytes: Int) -> Int { 64 << 10 + 16 * fileBytes }
}
