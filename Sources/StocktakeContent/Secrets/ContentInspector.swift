import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists

/// Reads what an app's files (plists, text, cookies, URL cache, SQLite, Realm) reveal, on several threads, each file
/// under its limits: nothing written, no link followed, no value kept, only its place, kind and length.
public struct ContentInspector {
    /// Limits of one file, by its store (a larger one is listed as not read); the pass as a whole is bounded only by
    /// its decoded work (`ContentMeter`), which grows with the bytes read.
    public struct Budget: Sendable {
        /// Text files are read up to this prefix (a log's first lines hold its headers and tokens as much as its last).
        public var textFileBytes = 64 << 10
        /// Real preferences and keyed archives are kilobytes; past this a plist is media or a dump, not settings.
        public var propertyListBytes = 4 << 20
        /// A Realm file is scanned in windows; a gigabyte is past what an app keeps on a phone (about a second's scan).
        public var realmBytes = 1 << 30
        /// Largest database read from a copy (an archive's entry, URLCache's `Cache.db`, a store with its `-wal`).
        public var copiedStoreBytes: Int64 = 64 << 20

        public init() {}

        /// The bytes of a file a pass may read by its kind alone (what an archive's first pass keeps); nil: never.
        public func bytesRead(kind: ContentKind, size: Int64) -> Int64? {
            switch kind {
            case .binaryPlist, .xmlPlist, .keyedArchive, .binaryCookies: size <= Int64(propertyListBytes) ? size : nil
            case .realm: size <= Int64(realmBytes) ? size : nil
            case .sqlite: size <= copiedStoreBytes ? size : nil
            case .json, .text: min(size, Int64(textFileBytes))
            default: nil
            }
        }
    }

    /// Where an entry's bytes are: a file (never through a link) or bytes already read; or a text file whose prefix
    /// was scanned as it streamed by and holds no trigger (`WalkTextScan`), read with nothing to find.
    public enum Source: Sendable {
        case file(String)
        case bytes([UInt8])
        case scannedClean
    }

    let root: String
    let inventory: Inventory
    let budget: Budget
    let limits: ContentMeter.Limits
    /// Where an entry's bytes are when not below `root` (a device backup's files, an archive's entries); nil: unread.
    let locate: (@Sendable (Int32) -> Source?)?
    let threads: Int
    /// The text files the walk already read and found no trigger in.
    let walkScan: WalkTextScan?

    public init(
        root: String, inventory: Inventory, budget: Budget = Budget(),
        limits: ContentMeter.Limits = ContentMeter.Limits(), threads: Int = 4,
        locate: (@Sendable (Int32) -> Source?)? = nil, walkScan: WalkTextScan? = nil
    ) {
        (self.root, self.inventory, self.budget, self.limits) = (root, inventory, budget, limits)
        (self.threads, self.locate, self.walkScan) = (max(1, threads), locate, walkScan)
    }

    /// One file the pass reads, the store it is read as, and how many of its bytes.
    public struct Selected: Sendable {
        public let entry: Int32
        package let store: SensitiveItem.Store
        let limit: Int
        public let bytes: Int64
    }

    /// A file the pass would read and does not (or not whole), and why.
    public struct Unread: Sendable {
        public let entry: Int32
        public let reason: ContentCoverage.Reason
        public let bytes: Int64
        public let detail: String

        public init(entry: Int32, reason: ContentCoverage.Reason, bytes: Int64, detail: String) {
            (self.entry, self.reason, self.bytes, self.detail) = (entry, reason, bytes, detail)
        }
    }

    /// What one pass found, its coverage, and an issue per file not read whole.
    public struct Outcome: Sendable {
        public var items: [SensitiveItem] = []
        public var coverage = ContentCoverage()
        public var issues: [ScanIssue] = []
        /// The work the pass did (`ContentMeter`) and how many files a limit stopped.
        public var bytesRead: Int64 = 0
        public var decodedObjects = 0
        public var decodedBytes: Int64 = 0
        public var filesStopped = 0

        public init() {}

        package mutating func countPassedOver(_ entries: [Int32], in inventory: Inventory) {
            for entry in entries { coverage.countPassedOver(bytes: inventory.entries[Int(entry)].apparentBytes) }
        }
    }

    /// Distinct items kept per file (a place and kind each, repeats counted); more are counted under "other places".
    static let maxItemsPerFile = 100
    /// Issues listed per pass; past this one issue counts the rest (the coverage has every one).
    static let maxIssues = 10_000

    public func run() -> Outcome {
        let (selected, unread, passedOver) = plan()
        var outcome = inspect(selected, unread: unread)
        outcome.countPassedOver(passedOver, in: inventory)
        return outcome
    }

    /// The files the pass reads, in path order; those it leaves unread (over their size limit, or that the walk could
    /// not open, so they may be any store); and those of a kind it reads that iOS made, passed over.
    package func plan() -> (selected: [Selected], unread: [Unread], passedOver: [Int32]) {
        var selected: [Selected] = []
        var unread: [Unread] = []
        var passedOver: [Int32] = []
        inventory.forEachEntryInPathOrder { index, entry in
            func leave(_ reason: ContentCoverage.Reason, _ why: String) {
                unread.append(
                    Unread(entry: index, reason: reason, bytes: entry.apparentBytes, detail: "not read: " + why))
            }
            guard entry.type == .file, !entry.flags.contains(.transportArtefact) else { return }
            guard let (store, limit) = store(of: entry, index: index) else {
                // A kind the pass reads at all: some bytes of an empty one would be read.
                if entry.flags.contains(.systemManaged) && budget.bytesRead(kind: entry.kind, size: 0) != nil {
                    passedOver.append(index)
                } else if entry.flags.contains(.unreadable) && entry.kind == .unknown
                    && !entry.flags.contains(.systemManaged)
                {
                    leave(.unreadable, "the walk could not open it, so its kind and content are unknown")
                }
                return
            }
            guard store == .textFile || entry.apparentBytes <= Int64(limit) else {
                leave(
                    .overSizeLimit,
                    "\(entry.apparentBytes) bytes, over the \(limit)-byte limit of a \(Self.noun(store))")
                return
            }
            let bytes = store == .textFile ? min(entry.apparentBytes, Int64(limit)) : entry.apparentBytes
            selected.append(Selected(entry: index, store: store, limit: limit, bytes: bytes))
        }
        return (selected, unread, passedOver)
    }

    /// What the selected files reveal, with the pass's coverage and issues (`unread`: files already passed over).
    package func inspect(_ selected: [Selected], unread: [Unread]) -> Outcome {
        var outcome = Outcome()
        var unread = unread
        let reads = readAll(selected)
        for (chosen, read) in zip(selected, reads.files) {
            let bytes = inventory.entries[Int(chosen.entry)].apparentBytes
            if let notRead = read.notRead {
                unread.append(
                    Unread(entry: chosen.entry, reason: notRead.0, bytes: bytes, detail: "not read: " + notRead.1))
            } else {
                outcome.coverage.countInspected(chosen.store, bytes: chosen.bytes)
            }
            for (reason, detail) in read.leftOut {
                unread.append(Unread(entry: chosen.entry, reason: reason, bytes: 0, detail: "read in part: " + detail))
            }
            // Hits found before a limit stopped the file are kept: they are real.
            outcome.items += Self.grouped(read.hits, entry: chosen.entry, store: chosen.store)
        }
        for meter in reads.meters {
            outcome.bytesRead += meter.bytesRead
            outcome.decodedObjects += meter.passObjects
            outcome.decodedBytes += meter.passBytes
            outcome.filesStopped += meter.filesStopped
        }
        // A file read in part is counted once per reason; its bytes were counted as inspected.
        for file in unread { outcome.coverage.countSkipped(file.reason, bytes: file.bytes) }
        // Paths built only for the issues listed: a spent budget may leave most of a large container unread.
        for file in inPathOrder(unread).prefix(Self.maxIssues) {
            outcome.issues.append(
                ScanIssue(path: inventory.path(file.entry), reason: .contentNotRead, detail: file.detail))
        }
        if unread.count > Self.maxIssues {
            outcome.issues.append(
                ScanIssue(
                    path: [], reason: .contentNotRead,
                    detail:
                        "\(unread.count - Self.maxIssues) more files not read by the content checks are not listed (the content coverage counts them)"
                ))
        }
        return outcome
    }

    /// `unread` in the inventory's path order (a file's reasons in their order).
    private func inPathOrder(_ unread: [Unread]) -> [Unread] {
        let wanted = Int32(-1)
        var position = [Int32](repeating: .max, count: inventory.entries.count)
        for file in unread { position[Int(file.entry)] = wanted }
        var next: Int32 = 0
        inventory.forEachInPathOrder { index in
            if position[Int(index)] == wanted { position[Int(index)] = next }
            next += 1
        }
        return unread.sorted {
            let (left, right) = (position[Int($0.entry)], position[Int($1.entry)])
            return left == right ? $0.reason.rawValue < $1.reason.rawValue : left < right
        }
    }

    /// One item per place and kind, repeats counted, in the order first found; past `maxItemsPerFile`, "other places".
    static func grouped(_ hits: [PropertyListSecrets.Hit], entry: Int32, store: SensitiveItem.Store) -> [SensitiveItem]
    {
        var firsts: [PropertyListSecrets.Hit] = []
        var counts: [Int] = []
        var group: [String: Int] = [:]
        for hit in hits {
            var key = hit.kind.rawValue + " " + hit.place
            if group[key] == nil && firsts.count >= maxItemsPerFile { key = hit.kind.rawValue + " " }
            if let index = group[key] {
                counts[index] += 1
                continue
            }
            group[key] = firsts.count
            firsts.append(
                key.hasSuffix(" ")
                    ? PropertyListSecrets.Hit(place: "other places", kind: hit.kind, length: hit.length) : hit)
            counts.append(1)
        }
        return zip(firsts, counts).map { hit, count in
            SensitiveItem(
                entry: entry, store: store, place: hit.place, kind: hit.kind, length: hit.length, count: count)
        }
    }

    private static func noun(_ store: SensitiveItem.Store) -> String {
        switch store {
        case .propertyList: "property list"
        case .textFile: "text file"
        case .cookies: "cookie file"
        case .urlCache: "URL cache"
        case .database: "SQLite store"
        case .realm: "Realm file"
        }
    }

    /// Which store an entry is, and how many bytes of it may be read; nil: not looked at.
    private func store(of entry: Entry, index: Int32) -> (SensitiveItem.Store, Int)? {
        switch entry.kind {
        case .binaryPlist, .xmlPlist, .keyedArchive:
            return entry.flags.contains(.systemManaged) ? nil : (.propertyList, budget.propertyListBytes)
        case .sqlite:
            // URLCache's Cache.db is read as the URL cache; other stores iOS makes are not the app's.
            let name = inventory.name(index)
            if name.elementsEqual("Cache.db".utf8) { return (.urlCache, Int(URLCacheDatabase.maxCopiedBytes)) }
            // WebKit makes its local storage, but what it holds is the app's pages' data.
            return entry.flags.contains(.systemManaged) && !Self.isWebLocalStorage(name) ? nil : (.database, Int.max)
        case .realm:
            return (.realm, budget.realmBytes)
        case .binaryCookies:
            return (.cookies, budget.propertyListBytes)
        case .json, .text:
            let cachedBody = entry.parent >= 0 && Self.holdsCachedBodies(inventory.name(entry.parent))
            return Self.readsAsText(entry.kind, flags: entry.flags, inCachedBodies: cachedBody)
                ? (.textFile, budget.textFileBytes) : nil
        default:
            return nil
        }
    }

    /// Whether the pass reads a file as text, which the walk does while the file's folder is open: JSON or text
    /// the app wrote, in Caches and tmp too (a secret there is still at rest; the rules grade it by exposure).
    package static func readsAsText(_ kind: ContentKind?, flags: EntryFlags, inCachedBodies: Bool) -> Bool {
        (kind == .json || kind == .text) && !inCachedBodies
            && flags.isDisjoint(with: [.systemManaged, .transportArtefact])
    }

    /// URLCache's bodies folder (`fsCachedData/`): its files are read through the `Cache.db` beside it.
    package static func holdsCachedBodies(_ folderName: some Collection<UInt8>) -> Bool {
        folderName.elementsEqual("fsCachedData".utf8)
    }

    /// `*.localstorage` (one file per origin) or `localstorage.sqlite3` (WebKit since 2022), any case.
    static func isWebLocalStorage(_ name: ArraySlice<UInt8>) -> Bool {
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        return lowered.hasSuffix(".localstorage") || lowered == "localstorage.sqlite3"
    }
}
