/// Why an AppleDouble sidecar could not be read: the extended attributes (backup flags) it carries are unknown.
public struct AppleDoubleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each reason in words: `detail`.
    public enum Reason: Sendable, Equatable {
        case notAppleDouble
        case truncatedHeader
        case entryOutOfRange(index: Int, entryID: UInt32)
        case attributeHeaderBeyondLimit
        case tooManyAttributes(Int)
        case attributeEntryOutOfRange(index: Int)
        case emptyAttributeName(index: Int)
        case invalidAttributeName(index: Int)
        case attributeValueOutOfRange(index: Int)
    }

    public let reason: Reason
    /// Byte offset in the sidecar where the problem was found.
    public let offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        "not a readable AppleDouble sidecar (\(detail), at byte \(offset)); its extended attributes, "
            + "including any backup-exclusion flag, cannot be read: re-export the container or remove the file"
    }

    private var detail: String {
        switch reason {
        case .notAppleDouble: "no AppleDouble header: magic 00 05 16 07 with version 2 expected"
        case .truncatedHeader: "the file ends inside the header"
        case .entryOutOfRange(let index, let entryID):
            "header entry \(index) (id \(entryID)) points past the end of the file"
        case .attributeHeaderBeyondLimit: "the attribute table does not fit in the first 64 KiB"
        case .tooManyAttributes(let count): "\(count) attributes claimed, at most \(AppleDouble.maxAttributes) accepted"
        case .attributeEntryOutOfRange(let index): "attribute entry \(index) runs past the end of the file"
        case .emptyAttributeName(let index): "attribute entry \(index) has an empty name"
        case .invalidAttributeName(let index): "attribute entry \(index) has a name that is not NUL-terminated UTF-8"
        case .attributeValueOutOfRange(let index): "the value of attribute \(index) lies outside the file"
        }
    }
}
