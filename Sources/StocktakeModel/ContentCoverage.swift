/// What the content pass read and what it left unread: files and bytes inspected per store, and files and bytes
/// not read (or read only in part) per reason. An audit says what it did not look at; nothing is skipped silently.
public struct ContentCoverage: Sendable, Equatable {
    public struct Count: Sendable, Equatable {
        public var files = 0
        public var bytes: Int64 = 0

        mutating func add(_ bytes: Int64, files: Int = 1) {
            self.files += files
            self.bytes = self.bytes.saturatingAdd(bytes)
        }
    }

    /// Why a file the pass would read was not read, or not read whole.
    public enum Reason: String, Sendable, CaseIterable {
        /// Larger than its store's size limit: never opened.
        case overSizeLimit
        /// Kept so reports of older versions read the same: the pass has no budget of files or bytes any more.
        case budgetExhausted
        /// Decoding it stopped at a limit on decoded objects, bytes or work (per file or per audit).
        case workLimit
        /// Not a valid store of its kind (a plist, cookie jar, URL cache or SQLite store that does not parse).
        case unparseable
        /// An encrypted store: nothing to read without its key.
        case encrypted
        /// It could not be opened or read (gone, a permission, a device error).
        case unreadable
        /// Read, but one value in it was over the size read of one value, and was left out.
        case valueTooLarge
        /// A SQLite store whose `-wal` holds writes not yet in the store, and could not be read with it.
        case walNotRead

        /// How a summary says it.
        public var phrase: String {
            switch self {
            case .overSizeLimit: "over its size limit"
            case .budgetExhausted: "the content budget ran out"
            case .workLimit: "a decoding limit stopped it"
            case .unparseable: "does not parse"
            case .encrypted: "encrypted"
            case .unreadable: "could not be read"
            case .valueTooLarge: "a value over the size limit was left out"
            case .walNotRead: "its -wal was not read"
            }
        }
    }

    /// Files read, and their bytes, per store.
    public private(set) var inspected: [SensitiveItem.Store: Count] = [:]
    /// Files not read (or not read whole), and their bytes, per reason. A file read only in part counts here and
    /// under `inspected`.
    public private(set) var skipped: [Reason: Count] = [:]
    /// Files of a kind the pass reads that iOS's own frameworks make in the container (WebKit's and CFNetwork's
    /// stores, HSTS.plist, system preferences): passed over on purpose, not the app's data, and not a gap.
    public private(set) var passedOver = Count()

    public init() {}

    public mutating func countInspected(_ store: SensitiveItem.Store, bytes: Int64) {
        inspected[store, default: Count()].add(bytes)
    }

    public mutating func countPassedOver(bytes: Int64) { passedOver.add(bytes) }

    public mutating func countSkipped(_ reason: Reason, bytes: Int64) { skipped[reason, default: Count()].add(bytes) }

    public mutating func merge(_ other: ContentCoverage) {
        passedOver.add(other.passedOver.bytes, files: other.passedOver.files)
        for (store, count) in other.inspected {
            inspected[store, default: Count()].add(count.bytes, files: count.files)
        }
        for (reason, count) in other.skipped { skipped[reason, default: Count()].add(count.bytes, files: count.files) }
    }

    /// Every file the pass meant to read was read whole.
    public var isComplete: Bool { skipped.values.allSatisfy { $0.files == 0 } }

    /// Totals over every store, and over every reason.
    public var inspectedTotal: Count { inspected.values.reduce(into: Count()) { $0.add($1.bytes, files: $1.files) } }
    public var skippedTotal: Count { skipped.values.reduce(into: Count()) { $0.add($1.bytes, files: $1.files) } }

    /// "Content checks: read 12 files (340 KB); 2 files not read whole (…)", one line for every summary.
    public var summary: String {
        let read = inspectedTotal
        var text = "Content checks: read " + Plural.count(read.files, "file") + " (\(ByteCount.format(read.bytes)))"
        text += unreadSummary.map { "; " + $0 } ?? "; nothing left unread"
        return text
    }

    /// "3 files not read (2 over its size limit, 1 does not parse)", for summaries and the gate's message; nil when complete.
    public var unreadSummary: String? {
        guard !isComplete else { return nil }
        let parts = Reason.allCases.compactMap { reason in
            skipped[reason].flatMap { $0.files > 0 ? "\($0.files) \(reason.phrase)" : nil }
        }
        return Plural.count(skippedTotal.files, "file") + " not read whole by the content checks ("
            + parts.joined(separator: "; ") + ")"
    }
}
