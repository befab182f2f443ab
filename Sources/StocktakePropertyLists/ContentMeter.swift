/// The decoded work of a content pass, per file and per pass: a shared reference counts each time, so a small file
/// describing a huge tree is stopped by the work it causes. Not `Sendable`: one per thread.
public final class ContentMeter {
    /// Limits of decoded work: a real UserDefaults plist decodes to thousands of values, the largest sample to 40,000.
    public struct Limits: Sendable {
        public var objectsPerFile = 1_000_000
        public var bytesPerFile = 32 << 20
        /// Over the whole pass, growing with each byte read: an honest container of any size is read whole, while
        /// 2,000 small files that each decode to their own limit stop early.
        public var objectsPerPass = 3_000_000
        public var bytesPerPass: Int64 = 256 << 20
        public var objectsPerByteRead = 2
        public var bytesPerByteRead: Int64 = 8

        public init() {}
    }

    /// What judging one string costs, in decoded objects (measured: 25 µs against 1.5 µs per value decoded).
    package static let judgementCost = 16

    public let limits: Limits
    private(set) var fileObjects = 0
    private(set) var fileBytes = 0
    public private(set) var passObjects = 0
    public private(set) var passBytes: Int64 = 0
    /// Why the current file stopped; nil while it may go on.
    public private(set) var stopped: String?
    /// How many files a limit stopped, over the pass.
    public private(set) var filesStopped = 0

    /// `threads`: how many meters share the pass's fixed allowance.
    public init(limits: Limits = Limits(), threads: Int = 1) {
        self.limits = limits
        share = max(1, threads)
    }

    /// Bytes read by the pass so far (what its own limits grow with).
    public private(set) var bytesRead: Int64 = 0
    /// One meter per thread of a pass: the pass's fixed allowance is split between them.
    private let share: Int

    /// A new file of `bytes` read: its own counts start at zero; the pass's allowance grows with what it reads.
    package func beginFile(reading bytes: Int64 = 0) {
        bytesRead = bytesRead.saturatingAdd(max(0, bytes))
        fileObjects = 0
        fileBytes = 0
        stopped = nil
    }

    private var objectsAllowed: Int {
        Int(
            clamping: Int64(limits.objectsPerPass / share).saturatingAdd(
                Self.times(bytesRead, limits.objectsPerByteRead)))
    }

    private var bytesAllowed: Int64 {
        (limits.bytesPerPass / Int64(share)).saturatingAdd(Self.times(bytesRead, Int(limits.bytesPerByteRead)))
    }

    private static func times(_ bytes: Int64, _ factor: Int) -> Int64 {
        let (product, overflow) = bytes.multipliedReportingOverflow(by: Int64(factor))
        return overflow ? .max : product
    }

    /// Whether the pass's own limits are spent: no further file is worth opening.
    package var isPassSpent: Bool { passObjects >= objectsAllowed || passBytes >= bytesAllowed }

    /// Counts work; false (and `stopped` says why) once a limit is passed, and from then on for this file.
    @discardableResult
    package func charge(objects: Int = 0, bytes: Int = 0) -> Bool {
        guard stopped == nil else { return false }
        fileObjects += objects
        fileBytes += bytes
        passObjects += objects
        passBytes += Int64(bytes)
        if fileObjects > limits.objectsPerFile {
            stop(
                "more than \(limits.objectsPerFile) decoded objects in one file (shared references repeat one object many times)"
            )
        } else if fileBytes > limits.bytesPerFile {
            stop("more than \(limits.bytesPerFile >> 20) MiB of decoded strings and data in one file")
        } else if passObjects > objectsAllowed {
            stop("the content pass's limit of decoded objects (a multiple of the bytes it read) ran out")
        } else if passBytes > bytesAllowed {
            stop("the content pass's limit of decoded data (a multiple of the bytes it read) ran out")
        }
        return stopped == nil
    }

    /// Stops the current file for a reason of the reader's own (a cap on cookies, tables, columns).
    package func stop(_ reason: String) {
        guard stopped == nil else { return }
        stopped = reason
        filesStopped += 1
    }
}
