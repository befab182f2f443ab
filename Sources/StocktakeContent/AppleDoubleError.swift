/// Why an AppleDouble sidecar could not be read. The sidecar is then damaged or not AppleDouble at
/// all, and the extended attributes (backup flags) it was meant to carry are unknown.
public struct AppleDoubleError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The first 8 bytes are not the AppleDouble magic 00 05 16 07 with version 2.
        case notAppleDouble
        /// The file ends inside the 26-byte header or the entry table.
        case truncatedHeader
        /// Entry `index` of the header points outside the file.
        case entryOutOfRange(index: Int, entryID: UInt32)
        /// The ATTR header or its entry table does not fit in the first 64 KiB, where macOS keeps it.
        case attributeHeaderBeyondLimit
        /// The ATTR header claims more attributes than any real file carries.
        case tooManyAttributes(Int)
        /// Attribute entry `index` (its fixed part or its name) runs past the end of the file.
        case attributeEntryOutOfRange(index: Int)
        /// Attribute entry `index` has a name length of 0 (the length counts the trailing NUL).
        case emptyAttributeName(index: Int)
        /// Attribute entry `index` has a name that is not NUL-terminated UTF-8.
        case invalidAttributeName(index: Int)
        /// The value of attribute `index` lies (partly) outside the file.
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
