/// Something the audit could not read, and why. The audit goes on; the report lists these.
public struct ScanIssue: Sendable, Equatable {
    public enum Reason: String, Sendable, CaseIterable {
        case permissionDenied, vanished, tooDeep, nameTooLong, malformedMetadata, unreadable, unpairedSidecar
        /// The content checks did not read the file, or not all of it (the detail says why: a limit, a parse failure).
        case contentNotRead

        /// Whether an entry (or a folder's contents) may be missing from the totals: not for a file whose size was
        /// read and only its content or metadata was not.
        public var mayHideSize: Bool {
            switch self {
            case .permissionDenied, .vanished, .tooDeep, .nameTooLong, .unreadable: true
            case .malformedMetadata, .unpairedSidecar, .contentNotRead: false
            }
        }
    }

    /// Path relative to the container root, `/`-separated, raw bytes (names may not be UTF-8).
    public let path: [UInt8]
    public let reason: Reason
    public let detail: String

    public init(path: [UInt8], reason: Reason, detail: String) {
        (self.path, self.reason, self.detail) = (path, reason, detail)
    }
}
