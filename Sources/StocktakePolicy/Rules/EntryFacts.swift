import StocktakeModel

/// What several rules ask of an entry and of a folder's totals.
extension Entry {
    /// Neither made by iOS nor carried in by the export: something the app can act on.
    var isAppsOwn: Bool { !flags.contains(.systemManaged) && !flags.contains(.transportArtefact) }
    /// In the backup, or maybe (the export carried no backup evidence).
    var mayBeBackedUp: Bool { backup == .included || backup == .unknown }
    /// Allocated bytes, counted once across hard links.
    var countedBytes: Int64 { countsBytes ? allocatedBytes : 0 }
}

extension SizeTotal {
    /// "12 files, 3.4 MB": what a folder finding says the folder holds.
    var filesAndBytes: String { "\(Plural.count(files, "file")), \(ByteCount.format(allocatedBytes))" }
}

/// The walks most rules make.
extension Inventory {
    /// What `find` reports of each entry (nil: nothing), in index order.
    func findings(_ find: (Int32, Entry) -> RuleFinding?) -> [RuleFinding] {
        entries.indices.compactMap { find(Int32($0), entries[$0]) }
    }

    /// The app's own entries directly in the container folder at `path`; none when the folder is missing.
    func ownChildren(of path: String) -> [Int32] {
        guard let folder = containerFolder(path) else { return [] }
        return children(folder).filter { entries[Int($0)].isAppsOwn }
    }

    /// The container's top-level folder at a path like `Documents` or `Library`, if the inventory has it as a
    /// directory.
    func containerFolder(_ path: String) -> Int32? {
        guard let folder = index(ofPath: Array(path.utf8)), folder != root, entries[Int(folder)].isDirectory else {
            return nil
        }
        return folder
    }
}

/// A name or path as a message quotes it: lossy UTF-8, with what `VisibleText` replaces written out.
func quoted(_ bytes: some Collection<UInt8>) -> String { VisibleText.render(PathText.display(bytes), as: .message) }

/// What a message says of a file (`it is`) or files (`they are`) the export gave no backup evidence for.
func noBackupEvidence(_ subject: String) -> String {
    "may be backed up: the export carried no backup evidence (extended attributes or AppleDouble sidecars), so nothing shows \(subject) excluded."
}
