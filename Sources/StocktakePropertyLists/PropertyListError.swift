import StocktakeModel

/// Why a property list could not be read or decoded. The message names the format, the place
/// (object number, byte offset or XML line) and what was wrong, so a user can look at the file.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    /// Messages quote the file (an element name, a value, a path), which is hostile: what `VisibleText`
    /// replaces is written out (`\x1b`), so the message is one line of plain text wherever it is shown.
    public init(_ message: String) { self.message = VisibleText.render(message, as: .message) }

    public var description: String { message }

    static func binary(_ message: String) -> PropertyListError { PropertyListError("binary plist: " + message) }

    static func xml(_ message: String) -> PropertyListError { PropertyListError("XML plist: " + message) }
}

/// Limits that keep a hostile plist from exhausting the stack, the heap or the CPU.
enum PropertyListLimits {
    /// Deepest nesting of arrays and dictionaries accepted.
    static let maxDepth = 64
    /// Most values (containers, keys and scalars) one document may decode to. Binary plists can
    /// share references, so a small file can describe an exponentially large tree.
    static let maxValues = 1_000_000
    /// Most bytes of strings and data a binary plist of `fileBytes` may decode to. Without shared references a
    /// plist decodes to at most 1.5 times its size (UTF-16 to UTF-8); writers share equal strings (dictionary
    /// keys), which multiplies them a few times over. Beyond this, references point at one object again and again.
    static func maxDecodedBytes(fileBytes: Int) -> Int { 64 << 10 + 16 * fileBytes }
}
