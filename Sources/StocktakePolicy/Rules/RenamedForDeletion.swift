import StocktakeModel

/// The name test shared by `interrupted-deletion` (which reports such folders) and `tmp-leftovers` (which
/// leaves them to it): a folder renamed so it can be deleted in the background ("fast folder nuking").
enum RenamedForDeletion {
    /// Markers apps put in the new name, compared without regard to ASCII case.
    static let markers: [[UInt8]] = [".trash", "trash-", "deleting", ".deleted", "to-delete"].map { Array($0.utf8) }

    /// Suffixes a rename step puts after a UUID (`<UUID>.old`). Anything else after a UUID names what the
    /// folder holds (`<UUID>-thumbnails`, `<UUID>.bundle`): a live folder, not one renamed for deletion.
    static let uuidSuffixes: [[UInt8]] = [
        ".old", ".delete", ".deleted", ".deleting", ".trash", ".tmp", "-old", "-delete", "-deleted", "-deleting",
        "-trash",
    ].map { Array($0.utf8) }

    /// A UUID name (optionally hidden by a leading dot, optionally followed by one of `uuidSuffixes`), or a
    /// name containing one of the markers.
    static func matches(_ name: ArraySlice<UInt8>) -> Bool {
        let lowered = name.map(asciiLowercased)
        let afterDot = lowered.first == UInt8(ascii: ".") ? lowered.dropFirst() : lowered[...]
        if Hex.startsWithUUID(afterDot) {
            let suffix = afterDot.dropFirst(36)
            if suffix.isEmpty || uuidSuffixes.contains(where: { suffix.elementsEqual($0) }) { return true }
        }
        return markers.contains { ByteSearch.contains($0, in: lowered[...]) }
    }
}

/// What a subtree holds as app data: files (transport artefacts aside), bytes as `du` counts them (folders'
/// own blocks included, hard links once) and the oldest file's modification time.
struct SubtreeContents {
    var files = 0
    var allocatedBytes: Int64 = 0
    var oldestModified: Int64?

    /// Walks the subtree at `index` (the entry itself included). Linear in the subtree's size.
    init(_ inventory: Inventory, _ index: Int32) {
        var stack: [Int32] = [index]
        while let current = stack.popLast() {
            let entry = inventory.entries[Int(current)]
            if entry.flags.contains(.transportArtefact) { continue }
            if entry.isDirectory {
                stack.append(contentsOf: inventory.children(current))
            } else {
                files += 1
                oldestModified = min(oldestModified ?? entry.modified, entry.modified)
            }
            if entry.countsBytes { allocatedBytes = allocatedBytes.saturatingAdd(entry.allocatedBytes) }
        }
    }
}
