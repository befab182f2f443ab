import StocktakePropertyLists

/// Why a store (a cookie file, the URL cache) could not be read: the message names the place in the file.
public struct StoreReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension ContentMeter {
    /// Charges the meter, or throws why it stopped: a store's read ends at the first limit.
    func require(objects: Int = 0, bytes: Int = 0) throws(StoreReadError) {
        guard charge(objects: objects, bytes: bytes) else {
            throw StoreReadError(stopped ?? "a decoding limit was reached")
        }
    }
}
