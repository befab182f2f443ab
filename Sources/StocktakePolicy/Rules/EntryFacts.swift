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

/// A name or path as a message quotes it: lossy UTF-8, with what `VisibleText` replaces written out.
func quoted(_ bytes: some Collection<UInt8>) -> String { VisibleText.render(PathText.display(bytes), as: .message) }
