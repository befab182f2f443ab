import StocktakeFiles
import StocktakeModel

/// Reads what an app's files reveal, after the walk: property lists (UserDefaults among them), text files
/// the app writes, cookies, URLCache's `Cache.db`, SQLite stores and Realm files. Only these stores are
/// opened, each under a byte limit, and the whole pass under a budget, so a container of a million files
/// costs little more than its walk. Nothing is written; links are never followed; the values found are
/// never kept, only where they are, their kind and their length (`SensitiveItem`).
public struct ContentInspector {
    /// Limits of one pass.
    public struct Budget: Sendable {
        /// Text files are read up to this prefix (a log's first lines hold its headers and tokens as much as its last).
        public var textFileBytes = 64 << 10
        public var propertyListBytes = 4 << 20
        public var realmBytes = 16 << 20
        public var totalBytes: Int64 = 8 << 20
        public var files = 2_000
        /// Largest database read from a copy (an archive's entry, URLCache's `Cache.db`).
        public var copiedStoreBytes: Int64 = 64 << 20

        public init() {}

        /// How many bytes of a file of `kind` and `size` a pass may read, by its kind alone (the pass decides by
        /// place and name too): what an archive's first pass keeps for it. Nil: never read.
        public func bytesRead(kind: ContentKind, size: Int64) -> Int64? {
            switch kind {
            case .binaryPlist, .xmlPlist, .keyedArchive: size <= Int64(propertyListBytes) ? size : nil
            case .binaryCookies: size <= Int64(propertyListBytes) ? size : nil
            case .realm: size <= Int64(realmBytes) ? size : nil
            case .sqlite: size <= copiedStoreBytes ? size : nil
            case .json, .text: min(size, Int64(textFileBytes))
            default: nil
            }
        }
    }

    /// Where the bytes of an entry the pass reads are: a file (found by path, never through a link at its end), or
    /// bytes already read (an archive's first pass keeps them).
    public enum Source: Sendable {
        case file(String)
        case bytes([UInt8])
    }

    let root: String
    let inventory: Inventory
    let budget: Budget
    /// Limits of decoded work, per file and per pass (`ContentMeter`).
    let limits: ContentMeter.Limits
    /// Where an entry's bytes are when not at its path below `root` (a device backup's content files, an archive's
    /// kept or copied entries); nil: not readable.
    let locate: ((Int32) -> Source?)?

    public init(
        root: String, inventory: Inventory, budget: Budget = Budget(),
        limits: ContentMeter.Limits = ContentMeter.Limits(),
        locate: ((Int32) -> Source?)? = nil
    ) {
        self.root = root
        self.inventory = inventory
        self.budget = budget
        self.limits = limits
        self.locate = locate
    }

    /// One file the pass reads: the entry, the store it is read as, and how many of its bytes.
    public struct Selected: Sendable {
        public let entry: Int32
        let store: SensitiveItem.Store
        let limit: Int
        /// Bytes read: a text file's prefix, every other store whole.
        public let bytes: Int64
    }

    /// A file the pass would read and does not (or not whole), and why.
    public struct Unread: Sendable {
        public let entry: Int32
        public let reason: ContentCoverage.Reason
        public let bytes: Int64
        public let detail: String

        public init(entry: Int32, reason: ContentCoverage.Reason, bytes: Int64, detail: String) {
            self.entry = entry
            self.reason = reason
            self.bytes = bytes
            self.detail = detail
        }
    }

    /// What one pass found, read and left unread: the items, the coverage, and an issue per file not read whole.
    public struct Outcome: Sendable {
        public var items: [SensitiveItem] = []
        public var coverage = ContentCoverage()
        /// Paths relative to the inspected container's root.
        public var issues: [ScanIssue] = []
        /// The decoded work the pass did (`ContentMeter`), and how many files a limit stopped.
        public var decodedObjects = 0
        public var decodedBytes: Int64 = 0
        public var filesStopped = 0

        public init() {}
    }

    /// Distinct items kept per file (a place and kind each, repeats counted); more are counted under "other places".
    static let maxItemsPerFile = 100
    /// Issues listed per pass; past this one issue counts the rest (the coverage has every one).
    static let maxIssues = 10_000

    /// Every sensitive item of the container's files, in path order.
    public func inspect() -> [SensitiveItem] {
        run().items
    }

    /// The whole pass: what it found, its coverage and what it could not read.
    public func run() -> Outcome {
        let (selected, unread) = plan()
        return inspect(selected, unread: unread)
    }

    /// The files the pass reads, in path order, within the budget.
    public func selection() -> [Selected] {
        plan().selected
    }

    /// The files the pass reads, in path order, within the budget, and those it passes over for their size or
    /// because the budget ran out. Only files of a kind the pass reads are looked at here (paths are built only
    /// for the few read): the accounting costs nothing per file of the walk.
    public func plan() -> (selected: [Selected], unread: [Unread]) {
        var selected: [Selected] = []
        var unread: [Unread] = []
        var spent: Int64 = 0
        // One text for every file the budget leaves out (a large container has hundreds of thousands of them).
        let budgetDetail =
            "not read: the content checks' budget (\(budget.files) files, \(budget.totalBytes >> 20) MiB of text and plists) ran out"
        inventory.forEachInPathOrder { index in
            let entry = inventory.entries[Int(index)]
            guard entry.type == .file, !entry.flags.contains(.transportArtefact),
                let (store, limit) = store(of: entry, name: inventory.name(index))
            else { return }
            guard store == .textFile || entry.apparentBytes <= Int64(limit) else {
                unread.append(
                    Unread(
                        entry: index, reason: .overSizeLimit, bytes: entry.apparentBytes,
                        detail:
                            "not read: \(entry.apparentBytes) bytes, over the \(limit)-byte limit of a \(Self.noun(store))"
                    ))
                return
            }
            // Stores (databases, the URL cache, Realm files) are few and bounded by their own limits; the byte budget is
            // for the many small files, text and plists. A text file costs its prefix.
            let cost = [.database, .urlCache, .realm].contains(store) ? 0 : min(entry.apparentBytes, Int64(limit))
            guard selected.count < budget.files, spent + cost <= budget.totalBytes else {
                unread.append(
                    Unread(entry: index, reason: .budgetExhausted, bytes: entry.apparentBytes, detail: budgetDetail))
                return
            }
            spent += cost
            let bytes = store == .textFile ? min(entry.apparentBytes, Int64(limit)) : entry.apparentBytes
            selected.append(Selected(entry: index, store: store, limit: limit, bytes: bytes))
        }
        return (selected, unread)
    }

    /// What the selected files reveal; a file `locate` cannot place is listed as unread.
    public func inspect(_ selected: [Selected]) -> [SensitiveItem] {
        inspect(selected, unread: []).items
    }

    /// What the selected files reveal, with the coverage of the pass and its issues (`unread`: files the plan
    /// or the caller already passed over).
    public func inspect(_ selected: [Selected], unread: [Unread]) -> Outcome {
        var outcome = Outcome()
        var unread = unread
        let meter = ContentMeter(limits: limits)
        for chosen in selected {
            meter.beginFile()
            let bytes = inventory.entries[Int(chosen.entry)].apparentBytes
            guard !meter.isPassSpent else {
                unread.append(
                    Unread(
                        entry: chosen.entry, reason: .workLimit, bytes: bytes,
                        detail: "not read: the content pass's limit of decoded work ran out before it"))
                continue
            }
            guard
                let source = locate.map({ $0(chosen.entry) })
                    ?? .file(Paths.join(root, String(decoding: inventory.path(chosen.entry), as: UTF8.self)))
            else {
                unread.append(
                    Unread(
                        entry: chosen.entry, reason: .unreadable, bytes: bytes,
                        detail: "not read: its content is not available"))
                continue
            }
            let read = hits(in: source, chosen: chosen, meter: meter)
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
        outcome.decodedObjects = meter.passObjects
        outcome.decodedBytes = meter.passBytes
        outcome.filesStopped = meter.filesStopped
        // A file read in part is counted once per reason; its bytes were counted as inspected.
        for file in unread { outcome.coverage.countSkipped(file.reason, bytes: file.bytes) }
        // Issues in path order, paths built only for those listed: a budget that ran out early leaves most of a large
        // container's text files unread, and a path and a sort by paths for each would cost a second walk.
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

    /// `unread` in the inventory's path order (a file's reasons in their order), by each file's place in that order.
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
            let left = position[Int($0.entry)]
            let right = position[Int($1.entry)]
            return left == right ? $0.reason.rawValue < $1.reason.rawValue : left < right
        }
    }

    /// One item per place and kind, repeats counted, at most `maxItemsPerFile` per file (the rest counted per kind
    /// under "other places"), in the order first found.
    static func grouped(_ hits: [PropertyListSecrets.Hit], entry: Int32, store: SensitiveItem.Store) -> [SensitiveItem]
    {
        var order: [String] = []
        var found: [String: (hit: PropertyListSecrets.Hit, count: Int)] = [:]
        for hit in hits {
            var key = hit.kind.rawValue + " " + hit.place
            if found[key] == nil && order.count >= maxItemsPerFile { key = hit.kind.rawValue + " " }
            if let seen = found[key] {
                found[key] = (seen.hit, seen.count + 1)
            } else {
                let place = key.hasSuffix(" ") ? "other places" : hit.place
                found[key] = (PropertyListSecrets.Hit(place: place, kind: hit.kind, length: hit.length), 1)
                order.append(key)
            }
        }
        return order.map { key in
            let (hit, count) = found[key]!
            return SensitiveItem(
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

    /// Which store an entry is, and how many bytes of it may be read; nil for everything not looked at.
    private func store(of entry: Entry, name: ArraySlice<UInt8>) -> (SensitiveItem.Store, Int)? {
        switch entry.kind {
        case .binaryPlist, .xmlPlist, .keyedArchive:
            return entry.flags.contains(.systemManaged) ? nil : (.propertyList, budget.propertyListBytes)
        case .sqlite:
            // URLCache's Cache.db is read as the URL cache; other stores iOS makes are not the app's.
            if name.elementsEqual("Cache.db".utf8) { return (.urlCache, Int(URLCacheDatabase.maxCopiedBytes)) }
            // WebKit makes its local storage, but what it holds is the app's pages' data.
            return entry.flags.contains(.systemManaged) && !Self.isWebLocalStorage(name) ? nil : (.database, Int.max)
        case .realm:
            return (.realm, budget.realmBytes)
        case .binaryCookies:
            return (.cookies, budget.propertyListBytes)
        case .json, .text:
            // Caches and tmp too: a secret there is still at rest on the device (the rules grade it by exposure). URLCache's
            // bodies (`fsCachedData/`) are read through its `Cache.db`.
            let cachedBody = entry.parent >= 0 && inventory.name(entry.parent).elementsEqual("fsCachedData".utf8)
            return !entry.flags.contains(.systemManaged) && !cachedBody ? (.textFile, budget.textFileBytes) : nil
        default:
            return nil
        }
    }

    /// `*.localstorage` (one file per origin) or `localstorage.sqlite3` (WebKit since 2022), any case.
    static func isWebLocalStorage(_ name: ArraySlice<UInt8>) -> Bool {
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        return lowered.hasSuffix(".localstorage") || lowered == "localstorage.sqlite3"
    }

    /// What one file gave, and why it was not read (or not read whole).
    struct FileRead {
        var hits: [PropertyListSecrets.Hit] = []
        var notRead: (ContentCoverage.Reason, String)?
        var leftOut: [(ContentCoverage.Reason, String)] = []
    }

    private func hits(in source: Source, chosen: Selected, meter: ContentMeter) -> FileRead {
        let store = chosen.store
        let limit = chosen.limit
        var read = FileRead()
        switch (store, source) {
        case (.database, .file(let file)):
            let outcome = databaseHits(file, entry: chosen.entry, meter: meter)
            return FileRead(hits: outcome.hits, notRead: outcome.notRead, leftOut: outcome.leftOut)
        case (.urlCache, .file(let file)):
            var finder = CacheSecrets()
            do {
                try URLCacheDatabase.read(database: file, meter: meter) { finder.add($0) }
                read.hits = finder.hits
                if let stopped = meter.stopped { read.notRead = (.workLimit, stopped) }
            } catch {
                read.hits = finder.hits
                read.notRead = meter.stopped.map { (.workLimit, $0) } ?? (.unparseable, error.message)
            }
            return read
        case (.database, .bytes), (.urlCache, .bytes):
            read.notRead = (.unreadable, "an archive's store is read from a copy, and none was made")
            return read
        case (.propertyList, _), (.textFile, _), (.realm, _), (.cookies, _):
            let bytes: [UInt8]
            switch source {
            case .bytes(let kept): bytes = store == .textFile ? Array(kept.prefix(limit)) : kept
            case .file(let file):
                switch self.read(file, limit: limit, prefixOnly: store == .textFile) {
                case .success(let read): bytes = read
                case .failure(let refusal):
                    read.notRead = (.unreadable, refusal.description)
                    return read
                }
            }
            switch store {
            case .propertyList:
                do {
                    let value = try PropertyListReader.parse(bytes, meter: meter)
                    read.hits = PropertyListSecrets.find(in: value, meter: meter)
                } catch {
                    read.notRead =
                        meter.stopped.map { (.workLimit, $0) } ?? (
                            .unparseable, "not a property list: \(error.message)"
                        )
                    return read
                }
            case .realm:
                if bytes.count > 24, bytes[16..<20].elementsEqual("T-DB".utf8) {
                    read.hits = RealmSecrets.find(bytes)
                } else {
                    read.notRead = (.encrypted, "no Realm header (`T-DB`): an encrypted Realm file")
                }
            case .cookies:
                do {
                    read.hits = CookieSecrets.find(try BinaryCookies.parse(bytes, meter: meter))
                } catch {
                    read.notRead =
                        meter.stopped.map { (.workLimit, $0) } ?? (.unparseable, "not a cookie file: \(error.message)")
                    return read
                }
            default:
                read.hits = TextSecrets.find(in: bytes)
            }
            if let stopped = meter.stopped { read.notRead = (.workLimit, stopped) }
            return read
        }
    }

    /// A store read in place, or, when its `-wal` holds writes not yet in it, from a private copy of both (never
    /// beside the input): the immutable mode would skip the `-wal`, where a password just saved may still be.
    private func databaseHits(_ file: String, entry: Int32, meter: ContentMeter) -> DatabaseSecrets.Outcome {
        guard let wal = walSource(of: entry) else { return DatabaseSecrets.find(database: file, meter: meter) }
        guard let walPath = wal.path else {
            var outcome = DatabaseSecrets.find(database: file, meter: meter)
            outcome.leftOut.append(
                (
                    .walNotRead,
                    "its -wal (\(wal.bytes) bytes) may hold writes not in the store, and its content is not available here"
                ))
            return outcome
        }
        let storeBytes = inventory.entries[Int(entry)].apparentBytes
        guard storeBytes <= budget.copiedStoreBytes, wal.bytes <= budget.copiedStoreBytes else {
            var outcome = DatabaseSecrets.find(database: file, meter: meter)
            outcome.leftOut.append(
                (
                    .walNotRead,
                    "its -wal (\(wal.bytes) bytes) holds writes not in the store, and the two are over the \(budget.copiedStoreBytes >> 20) MiB copied to read it"
                ))
            return outcome
        }
        guard let scratch = ScratchFolder("stocktake-wal") else {
            var outcome = DatabaseSecrets.find(database: file, meter: meter)
            outcome.leftOut.append((.walNotRead, "its -wal could not be copied to be read: \(SystemError.currentText)"))
            return outcome
        }
        defer { withExtendedLifetime(scratch) {} }
        if case .success(let store) = readWhole(file, maxBytes: budget.copiedStoreBytes),
            case .success(let log) = readWhole(walPath, maxBytes: budget.copiedStoreBytes),
            scratch.store("store.sqlite", store) != nil, scratch.store("store.sqlite-wal", log) != nil
        {
            return DatabaseSecrets.find(database: scratch.path + "/store.sqlite", openedNormally: true, meter: meter)
        }
        var outcome = DatabaseSecrets.find(database: file, meter: meter)
        outcome.leftOut.append((.walNotRead, "its -wal could not be read or copied"))
        return outcome
    }

    /// The store's `-wal` when it holds anything, and where its bytes are (nil: not available, as in an archive).
    private func walSource(of entry: Int32) -> (path: String?, bytes: Int64)? {
        guard let index = inventory.index(ofPath: inventory.path(entry) + Array("-wal".utf8)) else { return nil }
        let wal = inventory.entries[Int(index)]
        guard wal.type == .file, wal.apparentBytes > 0 else { return nil }
        guard
            let source = locate.map({ $0(index) })
                ?? .file(Paths.join(root, String(decoding: inventory.path(index), as: UTF8.self)))
        else {
            return (nil, wal.apparentBytes)
        }
        guard case .file(let path) = source else { return (nil, wal.apparentBytes) }
        return (path, wal.apparentBytes)
    }

    private func readWhole(_ path: String, maxBytes: Int64) -> Result<[UInt8], FileRefusal> {
        var options = RegularFile.Options.insideContainer(maxBytes: maxBytes)
        do {
            return .success(try RegularFile.open(path, options: &options).readAll())
        } catch {
            return .failure(error)
        }
    }

    /// The whole file for a plist or Realm file (within `limit`); its first `limit` bytes for a text file.
    private func read(_ path: String, limit: Int, prefixOnly: Bool) -> Result<[UInt8], FileRefusal> {
        var options = RegularFile.Options.insideContainer(maxBytes: prefixOnly ? nil : Int64(limit))
        do {
            let file = try RegularFile.open(path, options: &options)
            return .success(prefixOnly ? try file.read(at: 0, count: limit) : try file.readAll())
        } catch {
            return .failure(error)
        }
    }
}
