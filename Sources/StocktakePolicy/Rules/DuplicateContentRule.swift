import StocktakeModel

/// The same bytes stored at several paths: every copy but one is space the app could give back.
struct DuplicateContentRule: Rule {
    /// Small files cost little and are often legitimately identical (placeholders, templates): 4 KiB, apparent.
    static let defaultMinimumBytes: Int64 = 4096
    /// Other paths named in a finding's message; the rest are counted.
    static let listedPaths = 3

    static let description = RuleDescription(
        id: "duplicate-content", title: "Identical content stored more than once",
        finds: """
            identical content at two or more paths (hard links excluded): size, then a 4 KiB prefix, then SHA-256; \
            one finding per set with the wasted bytes
            """,
        rationale: """
            Every copy counts against the user's storage ("Documents & Data" in iPhone Storage) and, outside \
            Caches and tmp, goes into every backup: "Everything in your app's home directory is backed up, with \
            the exception of the application bundle itself, the caches directory, and temp directory" (iOS Data \
            Storage Guidelines). Tech Talk 204 (iOS Storage Best Practices) asks apps to keep their footprint \
            small. The same photo forwarded into two chats, or an attachment saved both in a chat folder and in \
            Documents, stores the same bytes twice; hard links of one file are not copies and are not reported.
            """,
        source: "\(Guidance.dataStorage) \(Guidance.storageTechTalk)",
        defaultSeverity: .warning,
        options: [
            RuleOption(
                name: "minimumBytes", defaultValue: ByteQuantity.text(defaultMinimumBytes),
                meaning: "ignore files smaller than this (apparent bytes)")
        ],
        fix: """
            Keep one copy and refer to it from the other places (a content-addressed store keyed by a hash of the \
            content, or a reference in the database); where copies must be separate files, a hard link or an APFS \
            clone (FileManager.copyItem on APFS clones) costs no extra space.
            """,
        examples: [
            RuleExample(
                "a photo forwarded into a second chat is stored twice", expectedFindings: 1,
                duplicates: [
                    [
                        "Library/Application Support/Chats/a/images/1.jpg",
                        "Library/Application Support/Chats/b/images/2.jpg",
                    ]
                ]
            ) { builder in
                builder.add("Library/Application Support/Chats/a/images/1.jpg", apparentBytes: 250_000)
                builder.add("Library/Application Support/Chats/b/images/2.jpg", apparentBytes: 250_000)
            },
            RuleExample(
                "two sets: three copies of a PDF and two of a video", expectedFindings: 2,
                duplicates: [
                    ["Documents/a.pdf", "Documents/b.pdf", "Library/Application Support/files/c.pdf"],
                    ["Documents/v.mov", "tmp/v.mov"],
                ]
            ) { builder in
                for path in ["Documents/a.pdf", "Documents/b.pdf", "Library/Application Support/files/c.pdf"] {
                    builder.add(path, apparentBytes: 16_771)
                }
                builder.add("Documents/v.mov", apparentBytes: 9_000_000)
                builder.add("tmp/v.mov", apparentBytes: 9_000_000)
            },
            RuleExample(
                "identical files under the minimum size", expectedFindings: 0,
                duplicates: [["Documents/a.txt", "Documents/b.txt"]]
            ) { builder in
                builder.add("Documents/a.txt", apparentBytes: 100)
                builder.add("Documents/b.txt", apparentBytes: 100)
            },
            RuleExample(
                "a copy managed by iOS leaves a single app copy: nothing the app can fix", expectedFindings: 0,
                duplicates: [["Library/SplashBoard/Snapshots/a.ktx", "Library/Application Support/launch.ktx"]]
            ) { builder in
                builder.add("Library/SplashBoard/Snapshots/a.ktx", apparentBytes: 500_000, flags: .systemManaged)
                builder.add("Library/Application Support/launch.ktx", apparentBytes: 500_000)
            },
            RuleExample("files of one size with no duplicate sets found", expectedFindings: 0, duplicates: []) {
                builder in
                builder.add("Documents/a.bin", apparentBytes: 50_000)
                builder.add("Documents/b.bin", apparentBytes: 50_000)
            },
        ], isOptIn: true)

    var minimumBytes = Self.defaultMinimumBytes

    static func reading(_ options: RuleOptionValues) throws(ConfigurationError) -> Self {
        try Self(minimumBytes: options.bytes("minimumBytes", default: defaultMinimumBytes))
    }

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        return context.duplicates.filter { $0.size >= minimumBytes }.compactMap { set in
            let copies = set.members.filter { index in
                guard index >= 0, Int(index) < inventory.entries.count else { return false }
                let entry = inventory.entries[Int(index)]
                return entry.type == .file && entry.countsBytes && entry.isAppsOwn
            }
            guard let first = copies.first, copies.count > 1 else { return nil }
            // Keeping the copy that occupies most leaves the least to gain: report that, never more.
            let allocated = copies.map { inventory.entries[Int($0)].allocatedBytes }
            let wasted = allocated.saturatingSum() - (allocated.max() ?? 0)
            return RuleFinding(
                index: first, message: message(copies, size: set.size, wasted: wasted, inventory), bytes: wasted)
        }
    }

    private func message(_ copies: [Int32], size: Int64, wasted: Int64, _ inventory: Inventory) -> String {
        let others = copies.dropFirst()
        var listed = others.prefix(Self.listedPaths).map { quoted(inventory.path($0)) }.joined(separator: ", ")
        if others.count > Self.listedPaths { listed += " and \(others.count - Self.listedPaths) more" }
        return
            "\(copies.count) identical copies of this \(ByteCount.format(size)) file (also at \(listed)): keeping one would free \(ByteCount.format(wasted))."
    }
}

extension Policy {
    /// The smallest file the scanner's duplicate finder must compare for this policy; nil when the policy does
    /// not run `duplicate-content` (then finding duplicates is wasted reading).
    public var duplicateMinimumBytes: Int64? {
        rules.lazy.compactMap { $0 as? DuplicateContentRule }.first?.minimumBytes
    }
}
