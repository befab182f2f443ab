import StocktakeModel

/// SQLite sidecars that signal trouble: a WAL that outgrew its database, or a sidecar whose database is gone.
struct SQLiteSidecarRule: Rule {
    /// SQLite checkpoints automatically at 1,000 pages (4 MB at the default 4 KiB page), so a WAL up to about
    /// this size is normal however small its database.
    static let defaultWalFloorBytes: Int64 = 4_000_000

    static let description = RuleDescription(
        id: "sqlite-sidecar", title: "Oversized WAL or orphaned SQLite sidecar",
        finds: """
            a `-wal` larger than its database (over `walFloorBytes`), or a sidecar or journal without its \
            database
            """,
        rationale: """
            SQLite keeps a database `X` with companions named after it: `X-wal` (write-ahead log) and `X-shm` (its \
            index) in WAL mode, `X-journal` in rollback mode. Committed pages wait in the WAL until a checkpoint \
            copies them back; a WAL larger than its database and past the auto-checkpoint size means checkpoints \
            are not happening (a long-lived read transaction, or auto-checkpointing turned off), so the store keeps \
            growing and every read scans a longer log. A sidecar whose database is missing is a leftover of a store \
            deleted or moved without its companions (or, for a hot journal, a store in an unknown state): dead bytes \
            that Apple's File System Programming Guide asks apps to clean up, and that are backed up when they sit \
            in Documents or Application Support ("Everything in your app's home directory is backed up", iOS Data \
            Storage Guidelines).
            """,
        source: """
            https://www.sqlite.org/wal.html ; https://www.sqlite.org/tempfiles.html ; \(Guidance.dataStorage) ; \
            \(Guidance.fileSystemGuide)
            """,
        defaultSeverity: .warning,
        options: [
            RuleOption(
                name: "walFloorBytes", defaultValue: ByteQuantity.text(defaultWalFloorBytes),
                meaning: "A WAL larger than its database is reported only above this many bytes (apparent size).")
        ],
        fix: """
            For a large WAL: end long-lived read transactions and let SQLite checkpoint (or run \
            `PRAGMA wal_checkpoint(TRUNCATE)` at a quiet moment). For an orphaned sidecar: delete a store together \
            with its `-wal`, `-shm` and `-journal` files (NSPersistentStoreCoordinator's destroyPersistentStore does), \
            and remove the leftovers at launch.
            """,
        examples: [
            RuleExample("a 6 MB WAL in front of a 1 MB database", expectedFindings: 1) { builder in
                builder.add("Library/Application Support/Sync/sync-state.sqlite", apparentBytes: 1_000_000)
                builder.add("Library/Application Support/Sync/sync-state.sqlite-wal", apparentBytes: 6_000_000)
                builder.add("Library/Application Support/Sync/sync-state.sqlite-shm", apparentBytes: 32_768)
            },
            RuleExample("a rollback journal, WAL and wal-index whose databases are gone", expectedFindings: 3) {
                builder in
                builder.add(
                    "Library/Application Support/Sync/contacts.sqlite-journal", apparentBytes: 8_704,
                    kind: .sqliteJournal)
                builder.add("Library/Application Support/old.sqlite-wal", apparentBytes: 4_152)
                builder.add("Library/Application Support/old.sqlite-shm", apparentBytes: 32_768)
            },
            RuleExample("a healthy WAL store, a WAL bigger than its database but under the floor", expectedFindings: 0)
            { builder in
                builder.add("Library/Application Support/Messages.sqlite", apparentBytes: 200_000)
                builder.add("Library/Application Support/Messages.sqlite-wal", apparentBytes: 90_000)
                builder.add("Library/Application Support/Messages.sqlite-shm", apparentBytes: 32_768)
                builder.add("Library/Application Support/Sync/sync-state.sqlite", apparentBytes: 16_384)
                builder.add("Library/Application Support/Sync/sync-state.sqlite-wal", apparentBytes: 123_632)
            },
            RuleExample(
                "names that only end like sidecars, a folder named like a database, system stores", expectedFindings: 0
            ) { builder in
                builder.add("Documents/travel-journal", apparentBytes: 500, kind: .sqliteJournal)
                builder.add("Documents/photo-wal", apparentBytes: 500, kind: .jpeg)
                builder.add(
                    "Library/HTTPStorages/com.example.chat/httpstorages.sqlite-wal", apparentBytes: 9_000,
                    flags: .systemManaged)
            },
            RuleExample(
                "WebKit's local storage directly in Caches, as older iOS kept it, its main file gone",
                expectedFindings: 0
            ) { builder in
                // The walk marks them from the system catalogue (`Library/Caches/*.localstorage*`).
                builder.add("Library/Caches/file__0.localstorage-wal", apparentBytes: 5_000, flags: .systemManaged)
                builder.add("Library/Caches/file__0.localstorage-shm", apparentBytes: 32_768, flags: .systemManaged)
            },
        ])

    var walFloorBytes = Self.defaultWalFloorBytes

    static func reading(_ options: RuleOptionValues) throws(ConfigurationError) -> Self {
        try Self(walFloorBytes: options.bytes("walFloorBytes", default: defaultWalFloorBytes))
    }

    /// Each sidecar's content kind and the suffix it adds to its database's name.
    private static let suffixes: [(kind: ContentKind, suffix: [UInt8])] = [
        (.sqliteWAL, Array("-wal".utf8)), (.sqliteSHM, Array("-shm".utf8)), (.sqliteJournal, Array("-journal".utf8)),
    ]

    private struct Sidecar {
        let index: Int32
        let kind: ContentKind
        let database: ArraySlice<UInt8>
    }

    func evaluate(_ context: PolicyContext) -> [RuleFinding] {
        let inventory = context.inventory
        let sidecars = Self.sidecars(inventory)
        // Sibling files by name, only in folders that hold a sidecar: linear in those folders' sizes.
        var filesByFolder: [Int32: [ArraySlice<UInt8>: Int32]] = [:]
        for parent in Set(sidecars.map { inventory.entries[Int($0.index)].parent }) {
            var files: [ArraySlice<UInt8>: Int32] = [:]
            for child in inventory.children(parent) where !inventory.entries[Int(child)].isDirectory {
                files[inventory.name(child)] = child
            }
            filesByFolder[parent] = files
        }
        return sidecars.compactMap { sidecar in
            let entry = inventory.entries[Int(sidecar.index)]
            let sidecarName = "\(quoted(inventory.name(sidecar.index))) (\(ByteCount.format(entry.apparentBytes)))"
            let databaseName = quoted(sidecar.database)
            guard let database = filesByFolder[entry.parent]?[sidecar.database] else {
                return RuleFinding(
                    index: sidecar.index,
                    message: """
                        \(sidecarName) has no database \(databaseName) beside it: delete the leftover, or find where \
                        the store went without its sidecars.
                        """,
                    discriminator: sidecar.kind == .sqliteWAL ? "missing-database" : "", bytes: entry.allocatedBytes)
            }
            let databaseBytes = inventory.entries[Int(database)].apparentBytes
            guard sidecar.kind == .sqliteWAL, entry.apparentBytes > databaseBytes, entry.apparentBytes > walFloorBytes
            else { return nil }
            return RuleFinding(
                index: sidecar.index,
                message: """
                    \(sidecarName) is larger than its database \(databaseName) (\(ByteCount.format(databaseBytes))): \
                    checkpoints are not keeping up, so end long read transactions and let SQLite checkpoint.
                    """,
                discriminator: "oversized-wal", bytes: entry.allocatedBytes)
        }
    }

    /// Files named `X-wal`, `X-shm` or `X-journal` whose content agrees (or is empty, as a truncated WAL or an
    /// idle journal is). A journal's `X` must have an extension, so a note called `travel-journal` is no sidecar.
    private static func sidecars(_ inventory: Inventory) -> [Sidecar] {
        var found: [Sidecar] = []
        // Kinds first: the suffix table's loop retains its arrays, once per file of a million.
        let kinds: [ContentKind] = [.sqliteWAL, .sqliteSHM, .sqliteJournal, .empty]
        for (offset, entry) in inventory.entries.enumerated()
        where entry.type == .file && kinds.contains(entry.kind) && entry.isAppsOwn {
            let index = Int32(offset)
            for (kind, suffix) in suffixes where entry.kind == kind || entry.kind == .empty {
                let name = inventory.name(index)
                guard name.count > suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else { continue }
                let database = name.dropLast(suffix.count)
                if kind == .sqliteJournal && !hasExtension(database) { break }
                found.append(Sidecar(index: index, kind: kind, database: database))
                break
            }
        }
        return found
    }

    private static func hasExtension(_ name: ArraySlice<UInt8>) -> Bool {
        name.dropFirst().contains(UInt8(ascii: ".")) && name.last != UInt8(ascii: ".")
    }
}
