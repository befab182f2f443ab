import Foundation
import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists

/// Reading the selected files: on `threads` threads, each with its own meter and its own way into the container.
extension ContentInspector {
    /// What one file gave, and why it was not read (or not read whole).
    struct FileRead {
        var hits: [PropertyListSecrets.Hit] = []
        var notRead: (ContentCoverage.Reason, String)?
        var leftOut: [(ContentCoverage.Reason, String)] = []
    }

    /// An entry's bytes, opened: a file (with the folder it was found in, for a store's companions), or kept bytes.
    enum Opened {
        case file(RegularFile, folder: OpenFolder?)
        case bytes([UInt8])
    }

    /// Consecutive files (siblings) one thread reads together, sharing their folder.
    static let filesPerTurn = 16

    /// Every selected file read, in the order given, and the meters that counted the work. Files are dealt to the
    /// threads in turns of `filesPerTurn`, the same way every run, so a pass's limits stop the same files.
    func readAll(_ selected: [Selected]) -> (files: [FileRead], meters: [ContentMeter]) {
        let workers = min(threads, max(1, (selected.count + Self.filesPerTurn - 1) / Self.filesPerTurn))
        let meters = (0..<workers).map { _ in ContentMeter(limits: limits, threads: workers) }
        var files = [FileRead](repeating: FileRead(), count: selected.count)
        files.withUnsafeMutableBufferPointer { slots in
            // Each thread writes only the slots of its own turns.
            nonisolated(unsafe) let slots = slots
            SideBySide.run(workers) { worker in
                let opener = locate == nil ? ContainerFiles(root: root) : nil
                // One buffer per thread for every text file's prefix: most are passed over without a copy.
                let text = UnsafeMutableRawBufferPointer.allocate(byteCount: budget.textFileBytes, alignment: 8)
                defer { text.deallocate() }
                var start = worker * Self.filesPerTurn
                while start < selected.count {
                    for index in start..<min(start + Self.filesPerTurn, selected.count) {
                        slots[index] = read(selected[index], meter: meters[worker], opener: opener, text: text)
                    }
                    start += workers * Self.filesPerTurn
                }
            }
        }
        return (files, meters)
    }

    private func read(
        _ chosen: Selected, meter: ContentMeter, opener: ContainerFiles?, text: UnsafeMutableRawBufferPointer
    )
        -> FileRead
    {
        guard !meter.isPassSpent else {
            return FileRead(notRead: (.workLimit, "the content pass's limit of decoded work ran out before it"))
        }
        meter.beginFile(reading: chosen.bytes)
        if chosen.store == .textFile, let walkScan, walkScan.prefixBytes >= chosen.limit,
            walkScan.isClean(chosen.entry)
        {
            return FileRead()
        }
        let sizeLimit = chosen.store == .textFile || chosen.limit == .max ? nil : Int64(chosen.limit)
        switch open(chosen.entry, maxBytes: sizeLimit, opener: opener) {
        case nil: return FileRead(notRead: (.unreadable, "its content is not available"))
        case .failure(let refusal): return FileRead(notRead: (.unreadable, refusal.description))
        case .success(.file(let file, _)) where chosen.store == .textFile:
            do {
                let count = try file.readPrefix(
                    into: UnsafeMutableRawBufferPointer(rebasing: text.prefix(chosen.limit)))
                let prefix = UnsafeRawBufferPointer(rebasing: text.prefix(count))
                return TextSecrets.mayHoldSecret(prefix)
                    ? FileRead(hits: TextSecrets.find(in: Array(prefix))) : FileRead()
            } catch {
                return FileRead(notRead: (.unreadable, error.description))
            }
        case .success(let opened): return hits(in: opened, chosen: chosen, meter: meter, opener: opener)
        }
    }

    /// Opens an entry through `locate` when given, else below the root without following any link; nil: not available.
    func open(_ entry: Int32, maxBytes: Int64?, opener: ContainerFiles?) -> Result<Opened, FileRefusal>? {
        do throws(FileRefusal) {
            if let opener {
                let (file, folder) = try opener.openFile(inventory.path(entry), maxBytes: maxBytes)
                return .success(.file(file, folder: folder))
            }
            switch locate?(entry) {
            case nil: return nil
            case .bytes(let bytes): return .success(.bytes(bytes))
            case .scannedClean: return .success(.bytes([]))
            case .file(let path):
                var options = RegularFile.Options.insideContainer(maxBytes: maxBytes)
                return .success(.file(try RegularFile.open(path, options: &options), folder: nil))
            }
        } catch {
            return .failure(error)
        }
    }

    private func hits(in opened: Opened, chosen: Selected, meter: ContentMeter, opener: ContainerFiles?) -> FileRead {
        switch (chosen.store, opened) {
        case (.database, .file(let file, _)):
            return databaseHits(file, entry: chosen.entry, meter: meter, opener: opener)
        case (.urlCache, .file(let file, let folder)):
            var finder = CacheSecrets()
            var read = FileRead()
            let wal = companion(of: chosen.entry, suffix: "-wal", opener: opener)
            do {
                try URLCacheDatabase.read(database: file, wal: wal, bodies: folder, meter: meter) { finder.add($0) }
            } catch {
                read.notRead = (.unparseable, error.message)
            }
            read.hits = finder.hits
            if let stopped = meter.stopped { read.notRead = (.workLimit, stopped) }
            return read
        case (.realm, .file(let file, _)): return realmHits(file)
        case (.database, .bytes), (.urlCache, .bytes):
            return FileRead(notRead: (.unreadable, "an archive's store is read from a copy, and none was made"))
        case (let store, .bytes(let kept)):
            return decode(store == .textFile ? Array(kept.prefix(chosen.limit)) : kept, store: store, meter: meter)
        case (let store, .file(let file, _)):
            do {
                return decode(try file.readAll(), store: store, meter: meter)
            } catch {
                return FileRead(notRead: (.unreadable, error.description))
            }
        }
    }

    /// A Realm file scanned in overlapping windows: memory stays one window however large the file.
    private func realmHits(_ file: RegularFile) -> FileRead {
        var names: Set<String> = []
        var offset: Int64 = 0
        do {
            while offset < file.size {
                let data = Self.nextData(in: file, from: offset)
                guard data < file.size else { break }
                // A hole reads as zeros, which end every name: the window starts where data does.
                let continuing = offset > 0 && data == offset
                offset = data
                let window = try file.read(at: offset, count: Self.realmWindow)
                if offset == 0 && !RealmSecrets.isRealm(window) { return FileRead(notRead: Self.encryptedRealm) }
                RealmSecrets.collect(window, into: &names, continuing: continuing)
                guard window.count == Self.realmWindow else { break }
                offset += Int64(Self.realmWindow - RealmSecrets.maxName - 1)
            }
        } catch {
            return FileRead(notRead: (.unreadable, error.description))
        }
        return FileRead(hits: RealmSecrets.hits(names))
    }

    static let realmWindow = 4 << 20
    private static let encryptedRealm: (ContentCoverage.Reason, String) =
        (.encrypted, "no Realm header (`T-DB`): an encrypted Realm file")

    /// Where data starts at or after `offset`, past a sparse file's holes (Linux's `SEEK_DATA`); `offset` itself
    /// where the system cannot say, the file's size when only a hole follows.
    private static func nextData(in file: RegularFile, from offset: Int64) -> Int64 {
        #if os(Linux)
            file.withDescriptor { descriptor in
                // SEEK_DATA is 3 on Linux; Glibc exports it only under _GNU_SOURCE.
                let found = lseek(descriptor, off_t(offset), 3)
                if found >= 0 { return Int64(found) }
                return errno == ENXIO ? file.size : offset
            }
        #else
            offset
        #endif
    }

    /// The hits of a plist, Realm file, cookie jar or text file already read.
    private func decode(_ bytes: [UInt8], store: SensitiveItem.Store, meter: ContentMeter) -> FileRead {
        var read = FileRead()
        do {
            switch store {
            case .propertyList:
                read.hits = PropertyListSecrets.find(
                    in: try PropertyListReader.parse(bytes, meter: meter), meter: meter)
            case .cookies: read.hits = CookieSecrets.find(try BinaryCookies.parse(bytes, meter: meter))
            case .realm where !RealmSecrets.isRealm(bytes): read.notRead = Self.encryptedRealm
            case .realm: read.hits = RealmSecrets.find(bytes)
            default: read.hits = TextSecrets.find(in: bytes)
            }
        } catch {
            let what = store == .cookies ? "not a cookie file" : "not a property list"
            read.notRead = (.unparseable, "\(what): \(error)")
        }
        if let stopped = meter.stopped { read.notRead = (.workLimit, stopped) }
        return read
    }

    /// A store read in place through its descriptor, or from a private copy with its `-wal` when that holds writes:
    /// the immutable mode would skip the `-wal`, where a password just saved may still be.
    private func databaseHits(_ file: RegularFile, entry: Int32, meter: ContentMeter, opener: ContainerFiles?)
        -> FileRead
    {
        /// The store read in place, with why its `-wal` was not (nil: it holds nothing).
        func inPlace(walNotRead: String? = nil) -> FileRead {
            var read = withExtendedLifetime(file) {
                DatabaseSecrets.find(database: ContainerFiles.descriptorPath(file), meter: meter)
            }
            if let walNotRead { read.leftOut.append((.walNotRead, walNotRead)) }
            return read
        }
        guard let walBytes = walBytes(of: entry) else { return inPlace() }
        guard file.size <= budget.copiedStoreBytes, walBytes <= budget.copiedStoreBytes else {
            return inPlace(
                walNotRead:
                    "its -wal (\(walBytes) bytes) holds writes not in the store, and the two are over the \(budget.copiedStoreBytes >> 20) MiB copied to read it"
            )
        }
        guard let wal = companion(of: entry, suffix: "-wal", opener: opener) else {
            return inPlace(
                walNotRead:
                    "its -wal (\(walBytes) bytes) may hold writes not in the store, and its content is not available here"
            )
        }
        guard let scratch = ScratchFolder("stocktake-wal") else {
            return inPlace(walNotRead: "its -wal could not be copied to be read: \(SystemError.currentText)")
        }
        if let store = try? file.readAll(), let log = try? wal.readAll(),
            scratch.store("store.sqlite", store) != nil, scratch.store("store.sqlite-wal", log) != nil
        {
            return withExtendedLifetime(scratch) {
                DatabaseSecrets.find(database: scratch.path + "/store.sqlite", openedNormally: true, meter: meter)
            }
        }
        return inPlace(walNotRead: "its -wal could not be read or copied")
    }

    /// The size of the store's `-wal` when it holds anything.
    private func walBytes(of entry: Int32) -> Int64? {
        guard let index = inventory.index(ofPath: inventory.path(entry) + Array("-wal".utf8)) else { return nil }
        let wal = inventory.entries[Int(index)]
        return wal.type == .file && wal.apparentBytes > 0 ? wal.apparentBytes : nil
    }

    /// The entry's name plus `suffix` (a store's `-wal`), opened as the entry was; nil when not listed or not opened.
    private func companion(of entry: Int32, suffix: String, opener: ContainerFiles?) -> RegularFile? {
        guard let index = inventory.index(ofPath: inventory.path(entry) + Array(suffix.utf8)),
            inventory.entries[Int(index)].type == .file,
            case .success(.file(let file, _)) = open(index, maxBytes: budget.copiedStoreBytes, opener: opener)
        else { return nil }
        return file
    }
}
