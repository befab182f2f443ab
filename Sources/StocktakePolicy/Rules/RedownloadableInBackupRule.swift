import StocktakeModel

/// Re-creatable or re-downloadable content (caches, thumbnails, stickers, downloaded media) in Documents or
/// Application Support that goes into the device backup.
struct RedownloadableInBackupRule: Rule {
    /// Folder findings under this many allocated bytes are not reported.
    static let defaultMinBytes: Int64 = 0

    static let description = RuleDescription(
        id: "redownloadable-in-backup", title: "Re-downloadable content is backed up",
        finds: """
            re-creatable content (caches, downloads, thumbnails, hashed or UUID names in cache-like folders) in \
            Documents or Application Support that is backed up
            """,
        rationale: """
            Apple's iOS Data Storage Guidelines: "Data that can be downloaded again or regenerated should be \
            stored in the <Application_Home>/Library/Caches directory", and the File System Programming Guide: \
            "Any file that can be re-created or downloaded must be excluded from the backup". Documents and \
            Application Support are backed up ("Included in iCloud and iTunes Backups", Tech Talk 204), so caches, \
            thumbnails, stickers and downloaded media kept there inflate every backup; App Review rejected apps \
            under guideline 2.23 for exactly this. Content that must survive low storage may stay if it is marked \
            with isExcludedFromBackup (QA1719). Found by name: cache-like folders (cache, thumb, sticker, tmp, \
            temp: every file inside; download: media, archives and hashed or UUID names inside) and files named \
            like caches or thumbnails.
            """,
        source: "\(Guidance.dataStorage) \(Guidance.fileSystemGuide) \(Guidance.qa1719)",
        defaultSeverity: .error, severityNote: "warning when the export carried no backup evidence",
        options: [
            RuleOption(
                name: "minBytes", defaultValue: ByteQuantity.text(defaultMinBytes),
                meaning:
                    "a wholly affected folder smaller than this (allocated bytes) is not reported, nor are its files")
        ],
        fix: """
            Store content the app can fetch or rebuild in Library/Caches (FileManager.default.urls(for: \
            .cachesDirectory, in: .userDomainMask)); if it must survive low storage, keep it in Application Support \
            and set URLResourceValues.isExcludedFromBackup = true on its folder.
            """,
        examples: [
            RuleExample(
                "an image cache in Application Support, backed up: one finding for the folder", expectedFindings: 1
            ) { builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add(
                    "Library/Application Support/ImageCache/0cc175b9c0f1b6a831c399e269772661", apparentBytes: 30_000)
                builder.add(
                    "Library/Application Support/ImageCache/92eb5ffee6ae2fec3ad71c777531578f", apparentBytes: 20_000)
            },
            RuleExample("the same cache marked excluded from backup", expectedFindings: 0) { builder in
                builder.add(
                    "Library/Application Support/ImageCache", type: .directory, backup: .excluded, evidence: .xattr)
                builder.add(
                    "Library/Application Support/ImageCache/0cc175b9c0f1b6a831c399e269772661", apparentBytes: 30_000)
            },
            RuleExample(
                "thumbnails in Documents from an export without backup evidence: a warning", expectedFindings: 1
            ) { builder in
                builder.add("Documents/Thumbnails/photo-1.jpg", apparentBytes: 8_000)
                builder.add("Documents/Thumbnails/photo-2.jpg", apparentBytes: 8_000)
            },
            RuleExample("user documents and chat media are not re-creatable", expectedFindings: 0) { builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add("Documents/Report.pdf", apparentBytes: 50_000)
                builder.add("Library/Application Support/Chats/c1/images/470828004642099781.jpg", apparentBytes: 40_000)
                builder.add("Documents/Templates/invoice.txt", apparentBytes: 1_000)
            },
            RuleExample("a Downloads folder: the downloaded video counts, the saved PDF does not", expectedFindings: 1)
            { builder in
                builder.evidence = InventoryBuilder.attributesKept
                builder.add("Documents/Downloads/episode-12.mp4", apparentBytes: 900_000)
                builder.add("Documents/Downloads/Boarding pass.pdf", apparentBytes: 40_000)
            },
            RuleExample("caches already in Library/Caches are fine", expectedFindings: 0) { builder in
                builder.add("Library/Caches/ImageCache/0cc175b9c0f1b6a831c399e269772661", apparentBytes: 30_000)
            },
        ])

    var minBytes = Self.defaultMinBytes

    static func reading(_ options: RuleOptionValues) throws(ConfigurationError) -> Self {
        try Self(minBytes: options.bytes("minBytes", default: defaultMinBytes))
    }

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        // A file's finding is kept as facts and worded only if no folder finding replaces it: in a million-file
        // container most affected files sit in wholly affected folders.
        var findings: [Pending] = []
        var stack: [FolderState] = []
        SubtreeWalk.run(
            inventory,
            visit: { index, entry in
                let parent = stack.last
                let inScope = entry.location == .documents || entry.location == .applicationSupport
                guard entry.isDirectory else {
                    guard inScope, !stack.isEmpty else { return }
                    if let file = affectedFile(index, entry, parent: parent, inventory: inventory) {
                        let unknown = file.unknown ? 1 : 0
                        stack[stack.count - 1].tally.add(
                            Tally(files: 1, affected: 1, unknown: unknown, bytes: file.bytes))
                        findings.append(.file(file))
                    } else if Self.counts(entry) {
                        stack[stack.count - 1].tally.files += 1
                    }
                    return
                }
                var cause = inScope ? parent?.cause : nil
                // The location's own folder (Documents, Application Support) is never a cause: only names below it.
                if inScope, parent?.location == entry.location,
                    let signal = RecreatableNames.folderSignal(inventory.name(index)),
                    cause == nil || cause?.signal == .downloadedMedia
                {
                    cause = (index, signal)
                }
                stack.append(FolderState(location: entry.location, cause: cause, findingsMark: findings.count))
            },
            finish: { index in
                guard let state = stack.popLast() else { return }
                if let cause = state.cause, state.tally.files > 0, state.tally.affected == state.tally.files {
                    // The whole folder is affected: one finding replaces those of its files and subfolders.
                    findings.removeSubrange(state.findingsMark...)
                    if state.tally.bytes >= minBytes {
                        findings.append(.worded(folderFinding(index, state.tally, cause: cause, inventory: inventory)))
                    }
                }
                if !stack.isEmpty { stack[stack.count - 1].tally.add(state.tally) }
            })
        return findings.map { pending in
            switch pending {
            case .worded(let finding): finding
            case .file(let file): file.finding(inventory)
            }
        }
    }

    private enum Pending {
        case worded(RuleFinding)
        case file(AffectedFile)
    }

    /// Why a file counts, and what its finding will say.
    private struct AffectedFile {
        enum Reason {
            case inCacheLikeFolder(Int32)
            case downloadedInto(Int32)
            case cacheLikeName
        }

        let index: Int32
        let reason: Reason
        let bytes: Int64
        let unknown: Bool

        func finding(_ inventory: Inventory) -> RuleFinding {
            let why =
                switch reason {
                case .inCacheLikeFolder(let cause): "in the cache-like folder “\(quoted(inventory.name(cause)))”"
                case .downloadedInto(let cause): "downloaded content in “\(quoted(inventory.name(cause)))”"
                case .cacheLikeName: "named like a cache or thumbnail"
                }
            let file = "This re-creatable file (\(ByteCount.format(bytes)), \(why))"
            let message =
                unknown
                ? "\(file) \(noBackupEvidence("it is"))"
                : "\(file) is backed up: it inflates every backup and the system cannot purge it."
            return RuleFinding(index: index, message: message, bytes: bytes, severity: unknown ? .warning : nil)
        }
    }

    /// Where a cause is and how strong it is.
    private typealias Cause = (folder: Int32, signal: RecreatableNames.FolderSignal)

    /// Counts of app-data files beneath a folder, and of those that are re-creatable and (maybe) backed up.
    private struct Tally {
        var files = 0
        var affected = 0
        var unknown = 0
        var bytes: Int64 = 0

        mutating func add(_ other: Tally) {
            files += other.files
            affected += other.affected
            unknown += other.unknown
            bytes = bytes.saturatingAdd(other.bytes)
        }
    }

    private struct FolderState {
        let location: Location
        let cause: Cause?
        let findingsMark: Int
        var tally = Tally()
    }

    /// App data the rule weighs: regular files the app wrote (not iOS's, not transport metadata).
    private static func counts(_ entry: Entry) -> Bool { entry.type == .file && entry.isAppsOwn }

    private func affectedFile(_ index: Int32, _ entry: Entry, parent: FolderState?, inventory: Inventory)
        -> AffectedFile?
    {
        guard Self.counts(entry), entry.mayBeBackedUp else { return nil }
        let name = inventory.name(index)
        let reason: AffectedFile.Reason
        if let cause = parent?.cause, cause.signal == .everything {
            reason = .inCacheLikeFolder(cause.folder)
        } else if let cause = parent?.cause, Self.isDownloadedContent(entry, name: name) {
            reason = .downloadedInto(cause.folder)
        } else if RecreatableNames.isCacheFileName(name) {
            reason = .cacheLikeName
        } else {
            return nil
        }
        return AffectedFile(index: index, reason: reason, bytes: entry.countedBytes, unknown: entry.backup == .unknown)
    }

    private static func isDownloadedContent(_ entry: Entry, name: ArraySlice<UInt8>) -> Bool {
        ["image", "media", "archive"].contains(entry.kind.family) || RecreatableNames.isHashedOrUUID(name)
    }

    private func folderFinding(_ index: Int32, _ tally: Tally, cause: Cause, inventory: Inventory) -> RuleFinding {
        let files = Plural.count(tally.files, "re-creatable file")
        let place = cause.signal == .everything ? "the cache-like folder" : "the download folder"
        let what = "\(files) (\(ByteCount.format(tally.bytes))) in \(place) “\(quoted(inventory.name(cause.folder)))”"
        // `unknown` only when every file is: one known-included file makes the folder's backup a fact.
        let unknown = tally.unknown == tally.affected
        let message =
            unknown
            ? "\(what) \(noBackupEvidence("they are"))"
            : "\(what) are backed up: they inflate every backup and the system cannot purge them."
        return RuleFinding(index: index, message: message, bytes: tally.bytes, severity: unknown ? .warning : nil)
    }
}
