import StocktakeModel

/// A single file big enough to matter in every backup.
struct LargeBackedUpFileRule: Rule {
    /// 50 MB (decimal, as Settings shows sizes), in allocated bytes.
    static let defaultThresholdBytes: Int64 = 50_000_000

    static let description = RuleDescription(
        id: "large-backed-up-file", title: "Large file in the backup",
        finds: "a single backed-up file at or over `thresholdBytes`",
        rationale: """
            Everything outside Caches and tmp is backed up ("Everything in your app's home directory is backed up, \
            with the exception of the application bundle itself, the caches directory, and temp directory", iOS \
            Data Storage Guidelines), and App Review measured exactly this: "on launch and/or content download, \
            your app stores 41.6 MB" (guideline 2.23). One large file in Documents or Application Support costs \
            the user iCloud space and backup time on every backup; the guidelines say only user-created data or \
            data the app cannot re-create belongs there, and QA1719's isExcludedFromBackup keeps the rest on the \
            device without backing it up.
            """,
        source: "\(Guidance.dataStorage) \(Guidance.qa1719)",
        defaultSeverity: .warning,
        options: [
            RuleOption(
                name: "thresholdBytes", defaultValue: ByteQuantity.text(defaultThresholdBytes),
                meaning: "report files whose allocated size is at least this")
        ],
        fix: """
            If the file can be downloaded or rebuilt, move it to Library/Caches; if it must stay, set \
            URLResourceValues.isExcludedFromBackup = true on it; if it is user data, consider splitting or \
            compressing it.
            """,
        examples: [
            RuleExample("a 60 MB backed-up archive in Application Support", expectedFindings: 1) { builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add("Library/Application Support/ChatBackup/backup.zip", apparentBytes: 60_000_000)
            },
            RuleExample(
                "a 60 MB file from an export without backup evidence: reported as possibly backed up",
                expectedFindings: 1
            ) { builder in builder.add("Documents/Movie.mov", apparentBytes: 60_000_000) },
            RuleExample("the same file excluded from backup, a large cache, and a small document", expectedFindings: 0)
            { builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add(
                    "Library/Application Support/ChatBackup/backup.zip", apparentBytes: 60_000_000, backup: .excluded,
                    evidence: .xattr)
                builder.add("Library/Caches/video.mp4", apparentBytes: 80_000_000)
                builder.add("Documents/Report.pdf", apparentBytes: 2_000_000)
            },
            RuleExample("a sparse file is measured by what it occupies, not by its length", expectedFindings: 0) {
                builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add("Documents/disk.img", apparentBytes: 1_000_000_000, allocatedBytes: 4096, flags: .sparse)
            },
        ])

    var thresholdBytes = Self.defaultThresholdBytes

    static func reading(_ options: RuleOptionValues) throws(ConfigurationError) -> Self {
        try Self(thresholdBytes: options.bytes("thresholdBytes", default: defaultThresholdBytes))
    }

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        context.inventory.findings { index, entry in
            guard entry.type == .file, entry.countsBytes, entry.allocatedBytes >= thresholdBytes, entry.mayBeBackedUp,
                entry.isAppsOwn
            else { return nil }
            let size = ByteCount.format(entry.allocatedBytes)
            let file = "This \(size) file (threshold \(ByteCount.format(thresholdBytes)))"
            let message =
                entry.backup == .unknown
                ? "\(file) \(noBackupEvidence("it is"))"
                : "\(file) is backed up: it goes into every iCloud and computer backup."
            return RuleFinding(index: index, message: message, bytes: entry.allocatedBytes)
        }
    }
}
