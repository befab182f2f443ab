import StocktakeModel
import StocktakeRendering

/// Writes rows of `files[]` or `directories[]`. Optional keys appear only when they say something, which
/// keeps a million rows small. One writer serves many rows (copying the inventory per row costs more
/// than writing the row).
struct EntryJSON {
    let inventory: Inventory
    private var ancestors = ExcludedByCache()

    init(inventory: Inventory) { self.inventory = inventory }

    mutating func write(_ index: Int32, path: [UInt8], to json: JSONStream) throws {
        let entry = inventory.entries[Int(index)]
        let flags = entry.flags
        try json.beginObject(compact: true)
        try json.key("allocatedBytes"); try json.int(entry.allocatedBytes)
        try json.key("apparentBytes"); try json.int(entry.apparentBytes)
        try json.key("backup"); try json.string(entry.backup.rawValue)
        try json.key("backupEvidence"); try json.string(entry.evidence.rawValue)
        if flags.contains(.escapesContainer) { try json.key("escapesContainer"); try json.bool(true) }
        let excludedBy = entry.excludedBy >= 0 ? ancestors.path(of: entry.excludedBy, in: inventory) : nil
        if let excludedBy { try json.key("excludedBy"); try json.string(PathText.display(excludedBy)) }
        if entry.isDirectory, let total = inventory.directoryTotals[index] {
            try json.key("files"); try json.int(total.files)
        }
        if flags.contains(.hardLinked) {
            try json.key("hardLink"); try json.string(flags.contains(.hardLinkDuplicate) ? "duplicate" : "counted")
        }
        if !entry.isDirectory { try json.key("kind"); try json.string(entry.kind.name) }
        try json.key("location"); try json.string(entry.location.rawValue)
        try json.key("modified"); try json.int(entry.modified)
        let pathIsText = PathText.isValidUTF8(path)
        try json.key("path")
        if pathIsText { try json.string(utf8: path) } else { try json.string(PathText.display(path)) }
        if let excludedBy, !PathText.isValidUTF8(excludedBy) { try json.key("rawExcludedBy"); try json.string(Base64.encode(excludedBy)) }
        if !pathIsText { try json.key("rawPath"); try json.string(Base64.encode(path)) }
        let target = entry.type == .symlink ? inventory.symlinkTargets[index] : nil
        if let target, !PathText.isValidUTF8(target) { try json.key("rawSymlinkTarget"); try json.string(Base64.encode(target)) }
        if flags.contains(.sparse) { try json.key("sparse"); try json.bool(true) }
        if let target { try json.key("symlinkTarget"); try json.string(PathText.display(target)) }
        try json.key("systemManaged"); try json.bool(flags.contains(.systemManaged))
        if entry.isDirectory, let total = inventory.directoryTotals[index] {
            try json.key("totalAllocatedBytes"); try json.int(total.allocatedBytes)
            try json.key("totalApparentBytes"); try json.int(total.apparentBytes)
        }
        if flags.contains(.transportArtefact) { try json.key("transportArtefact"); try json.bool(true) }
        try json.key("type"); try json.string(entry.type.name)
        if flags.contains(.unreadable) { try json.key("unreadable"); try json.bool(true) }
        try json.endObject()
    }

    /// `path` as text; when the name is not UTF-8, `path` shows U+FFFD and `rawPath` keeps the exact bytes (base64).
    static func writePath(_ path: [UInt8], _ json: JSONStream) throws {
        if PathText.isValidUTF8(path) {
            try json.key("path"); try json.string(utf8: path)
        } else {
            try json.key("path"); try json.string(PathText.display(path))
            try json.key("rawPath"); try json.string(Base64.encode(path))
        }
    }
}

/// Many entries share one flagged ancestor: build its path once.
struct ExcludedByCache {
    private var last: (index: Int32, path: [UInt8])?

    mutating func path(of index: Int32, in inventory: Inventory) -> [UInt8] {
        if let last, last.index == index { return last.path }
        let path = inventory.path(index)
        last = (index, path)
        return path
    }
}
