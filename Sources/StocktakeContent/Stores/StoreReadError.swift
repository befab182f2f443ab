/// Why a store (a cookie file, the URL cache) could not be read: the message names the place in the file.
public struct StoreReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
