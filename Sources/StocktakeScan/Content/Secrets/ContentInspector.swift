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
    /// Where an entry's bytes are when not at its path below `root` (a device backup's content files, an archive's
    /// kept or copied entries); nil: not readable.
    let locate: ((Int32) -> Source?)?

    public init(root: String, inventory: Inventory, budget: Budget = Budget(), locate: ((Int32) -> Source?)? = nil) {
        self.root = root
        self.inventory = inventory
        self.budget = budget
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

    /// Every sensitive item of the container's files, in path order.
    public func inspect() -> [SensitiveItem] {
        inspect(selection())
    }

    /// The files the pass reads, in path order, within the budget.
    public func selection() -> [Selected] {
        var selected: [Selected] = []
        var spent: Int64 = 0
        // Paths are built only for the few entries read: most of a large container is never looked at.
        inventory.forEachInPathOrder { index in
            let entry = inventory.entries[Int(index)]
            guard entry.type == .file, !entry.flags.contains(.transportArtefact), selected.count < budget.files,
                  let (store, limit) = store(of: entry, name: inventory.name(index)),
                  store == .textFile || entry.apparentBytes <= Int64(limit)
            else { return }
            // Stores (databases, the URL cache, Realm files) are few and bounded by their own limits; the byte budget is
            // for the many small files, text and plists. A text file costs its prefix.
            let cost = [.database, .urlCache, .realm].contains(store) ? 0 : min(entry.apparentBytes, Int64(limit))
            guard spent + cost <= budget.totalBytes else { return }
            spent += cost
            let bytes = store == .textFile ? min(entry.apparentBytes, Int64(limit)) : entry.apparentBytes
            selected.append(Selected(entry: index, store: store, limit: limit, bytes: bytes))
        }
        return selected
    }

    /// What the selected files reveal; a file `locate` cannot place is passed over.
    public func inspect(_ selected: [Selected]) -> [SensitiveItem] {
        selected.flatMap { chosen -> [SensitiveItem] in
            guard let source = locate.map({ $0(chosen.entry) }) ?? .file(root + "/" + String(decoding: inventory.path(chosen.entry), as: UTF8.self))
            else { return [] }
            return hits(in: source, store: chosen.store, limit: chosen.limit).map {
                SensitiveItem(entry: chosen.entry, store: chosen.store, place: $0.place, kind: $0.kind, length: $0.length)
            }
        }
    }

    /// Which store an entry is, and how many bytes of it may be read; nil for everything not looked at.
    private func store(of entry: Entry, name: ArraySlice<UInt8>) -> (SensitiveItem.Store, Int)? {
        let backedUpPlace = entry.location != .caches && entry.location != .tmp
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
            return backedUpPlace && !entry.flags.contains(.systemManaged) ? (.textFile, budget.textFileBytes) : nil
        default:
            return nil
        }
    }

    /// `*.localstorage` (one file per origin) or `localstorage.sqlite3` (WebKit since 2022), any case.
    static func isWebLocalStorage(_ name: ArraySlice<UInt8>) -> Bool {
        let lowered = String(decoding: name, as: UTF8.self).lowercased()
        return lowered.hasSuffix(".localstorage") || lowered == "localstorage.sqlite3"
    }

    private func hits(in source: Source, store: SensitiveItem.Store, limit: Int) -> [PropertyListSecrets.Hit] {
        switch (store, source) {
        case (.database, .file(let file)):
            return DatabaseSecrets.find(database: file)
        case (.urlCache, .file(let file)):
            return (try? URLCacheDatabase.read(database: file)).map(CacheSecrets.find) ?? []
        case (.database, .bytes), (.urlCache, .bytes):
            return []  // SQLite reads files: an archive's stores are copied out, never kept as bytes.
        case (.propertyList, _), (.textFile, _), (.realm, _), (.cookies, _):
            let bytes: [UInt8]
            switch source {
            case .bytes(let kept): bytes = store == .textFile ? Array(kept.prefix(limit)) : kept
            case .file(let file):
                guard let read = read(file, limit: limit, prefixOnly: store == .textFile) else { return [] }
                bytes = read
            }
            switch store {
            case .propertyList: return (try? PropertyListReader.parse(bytes)).map(PropertyListSecrets.find) ?? []
            case .realm: return RealmSecrets.find(bytes)
            case .cookies: return (try? BinaryCookies.parse(bytes)).map(CookieSecrets.find) ?? []
            default: return TextSecrets.find(in: bytes)
            }
        }
    }

    /// The whole file for a plist or Realm file (within `limit`); its first `limit` bytes for a text file.
    private func read(_ path: String, limit: Int, prefixOnly: Bool) -> [UInt8]? {
        var options = RegularFile.Options.insideContainer(maxBytes: prefixOnly ? nil : Int64(limit))
        guard let file = try? RegularFile.open(path, options: &options) else { return nil }
        return prefixOnly ? try? file.read(at: 0, count: limit) : try? file.readAll()
    }
}
