import StocktakeModel

/// A folder tree of very many small files: slack space, slow deletion, slow backup.
struct ManySmallFilesRule: Rule {
    static let defaultMinFiles = 10_000
    static let defaultMaxMedianBytes: Int64 = 16_384

    static let description = RuleDescription(
        id: "many-small-files", title: "Many small files",
        finds: "a subtree with `minFiles` files or more whose median size is at most `maxMedianBytes`",
        rationale: """
            Every file occupies at least one allocation block (4 KiB on APFS and ext4), so tens of thousands of \
            small files waste space, and each one is a separate item to enumerate, delete and copy into a backup \
            (the File System Programming Guide notes Documents and Library, except Caches, "are backed up by \
            iTunes and iCloud"). Tech Talk 204 (iOS Storage Best Practices) asks apps to keep their footprint \
            small and to clean up; a database or a few archive files hold the same data in fewer, fuller blocks. \
            Only the deepest folders that qualify are reported: a qualifying folder's files do not count again \
            for its ancestors.
            """,
        source: "\(Guidance.storageTechTalk) \(Guidance.fileSystemGuide)",
        defaultSeverity: .note,
        options: [
            RuleOption(
                name: "minFiles", defaultValue: String(defaultMinFiles),
                meaning: "a folder tree needs at least this many files to be reported"),
            RuleOption(
                name: "maxMedianBytes", defaultValue: ByteQuantity.text(defaultMaxMedianBytes),
                meaning: "and a median file size (apparent bytes, lower median) at most this"),
        ],
        fix: """
            Keep many small records in one store (SQLite, Core Data, a key-value database) or pack them into a few \
            larger files; if they are a cache, keep them in Library/Caches and prune them.
            """,
        examples: [
            RuleExample("10,000 one-kilobyte message files in one folder", expectedFindings: 1) { builder in
                for n in 0..<10_000 {
                    builder.add("Library/Application Support/Messages/\(n).json", apparentBytes: 1_000)
                }
            },
            RuleExample("9,999 small files: under the count", expectedFindings: 0) { builder in
                for n in 0..<9_999 {
                    builder.add("Library/Application Support/Messages/\(n).json", apparentBytes: 1_000)
                }
            },
            RuleExample("10,000 files whose median is 100 KB", expectedFindings: 0) { builder in
                for n in 0..<10_000 {
                    builder.add("Documents/Photos/\(n).jpg", apparentBytes: n < 4_000 ? 1_000 : 100_000)
                }
            },
            RuleExample("small files spread over subfolders: only their common folder qualifies", expectedFindings: 1) {
                builder in
                for n in 0..<10_000 { builder.add("Library/Caches/Tiles/\(n % 10)/\(n).png", apparentBytes: 2_000) }
            },
            RuleExample("a qualifying subfolder is reported, not also its parent", expectedFindings: 1) { builder in
                for n in 0..<10_000 { builder.add("Library/Caches/Tiles/z1/\(n).png", apparentBytes: 2_000) }
                for n in 0..<500 { builder.add("Library/Caches/Tiles/z2/\(n).png", apparentBytes: 2_000) }
            },
        ])

    var minFiles = Self.defaultMinFiles
    var maxMedianBytes = Self.defaultMaxMedianBytes

    static func reading(_ options: RuleOptionValues) throws(ConfigurationError) -> Self {
        try Self(
            minFiles: Int(options.integer("minFiles", default: Int64(defaultMinFiles))),
            maxMedianBytes: options.bytes("maxMedianBytes", default: defaultMaxMedianBytes))
    }

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        var findings: [RuleFinding] = []
        var stack: [SizeTally] = []
        SubtreeWalk.run(
            inventory,
            visit: { _, entry in
                if entry.isDirectory {
                    stack.append(SizeTally())
                } else if entry.isAppsOwn, !stack.isEmpty {
                    stack[stack.count - 1].add(entry, maxMedianBytes: maxMedianBytes)
                }
            },
            finish: { index in
                guard let tally = stack.popLast() else { return }
                if tally.files >= max(1, minFiles), tally.medianIsAtMost(maxMedianBytes) {
                    findings.append(finding(index, tally))
                } else if !stack.isEmpty {
                    stack[stack.count - 1].add(tally)
                }
            })
        return findings
    }

    private func finding(_ index: Int32, _ tally: SizeTally) -> RuleFinding {
        let median = ByteCount.format(min(tally.medianUpperBound(), maxMedianBytes))
        let message =
            "\(Plural.count(tally.files, "file")) with a median size of at most \(median) take \(ByteCount.format(tally.allocatedBytes)) on disk for \(ByteCount.format(tally.apparentBytes)) of data, and each is a separate item to delete and back up."
        return RuleFinding(index: index, message: message, bytes: tally.allocatedBytes)
    }

    /// File sizes beneath a folder, summarised without keeping or sorting them: whether the median is under the
    /// threshold is exact (a count of files at or under it); the median's value is known to a power of two.
    struct SizeTally {
        var files = 0
        /// Files whose apparent size is at most the threshold.
        var small = 0
        var apparentBytes: Int64 = 0
        var allocatedBytes: Int64 = 0
        /// Bucket 0: empty files; bucket b ≥ 1: sizes in 2^(b-1) ..< 2^b. Allocated on the first file.
        var buckets: [Int] = []

        mutating func add(_ entry: Entry, maxMedianBytes: Int64) {
            let size = max(0, entry.apparentBytes)
            files += 1
            if size <= maxMedianBytes { small += 1 }
            if buckets.isEmpty { buckets = [Int](repeating: 0, count: 65) }
            buckets[64 - UInt64(size).leadingZeroBitCount] += 1
            guard entry.countsBytes else { return }
            apparentBytes = apparentBytes.saturatingAdd(size)
            allocatedBytes = allocatedBytes.saturatingAdd(max(0, entry.allocatedBytes))
        }

        mutating func add(_ other: SizeTally) {
            guard other.files > 0 else { return }
            files += other.files
            small += other.small
            apparentBytes = apparentBytes.saturatingAdd(other.apparentBytes)
            allocatedBytes = allocatedBytes.saturatingAdd(other.allocatedBytes)
            buckets = buckets.isEmpty ? other.buckets : zip(buckets, other.buckets).map(+)
        }

        /// The lower median (the ⌈n/2⌉-th smallest size) is at most `threshold` exactly when that many files are.
        func medianIsAtMost(_ threshold: Int64) -> Bool { files > 0 && small >= (files - 1) / 2 + 1 }

        /// The top of the power-of-two bucket holding the lower median: the median is at most this and at least half of it plus one.
        func medianUpperBound() -> Int64 {
            let position = (files - 1) / 2
            var seen = 0
            for (b, count) in buckets.enumerated() {
                seen += count
                if seen > position { return b == 0 ? 0 : b >= 63 ? Int64.max : (Int64(1) << b) - 1 }
            }
            return Int64.max
        }
    }
}
