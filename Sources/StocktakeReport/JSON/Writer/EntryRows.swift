import Foundation
import StocktakeModel
import StocktakeRendering

/// Renders the rows of `files[]` or `directories[]` on all cores: the rows are cut into chunks, worker
/// threads format the chunks while the calling thread writes the finished ones in order. The output is
/// the same as a sequential writer's; formatting and writing overlap, and at most a few chunks wait in
/// memory (a million-row report is never held whole).
struct EntryRows: Sendable {
    let inventory: Inventory
    let rows: [Int32]
    let separator: [UInt8]
    static let chunkSize = 8192

    func write(_ emit: ([UInt8]) throws -> Void) throws {
        let chunks = stride(from: 0, to: rows.count, by: Self.chunkSize).map {
            $0..<min($0 + Self.chunkSize, rows.count)
        }
        guard !chunks.isEmpty else { return }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        try OrderedPipeline.run(
            count: chunks.count, workers: workers, window: 2 * workers + 1, make: { render(chunks[$0]) }, use: emit)
    }

    private func render(_ range: Range<Int>) -> [UInt8] {
        var out = RowBuffer(capacity: range.count * 340)
        var writer = EntryJSON(inventory: inventory)
        var folders = ParentPathCache(inventory: inventory)
        // The flagged folders that files inherit their exclusion from, with a slash as every folder here.
        var excluders = ParentPathCache(inventory: inventory)
        var row: [UInt8] = []
        // Rows go in path order, entries lie in the walk's: gathered first, in a loop whose loads do not wait on each
        // other, so their cache misses overlap instead of stalling each row's formatting.
        let gathered = rows[range].map { inventory.entries[Int($0)] }
        inventory.names.withUnsafeBufferPointer { names in
            for position in range {
                if position != range.lowerBound { out.append(separator) }
                let index = rows[position]
                let entry = gathered[position - range.lowerBound]
                let name = UnsafeBufferPointer(
                    rebasing: names[Int(entry.nameOffset)..<Int(entry.nameOffset) + Int(entry.nameLength)])
                if PlainFileRow.fits(entry), entry.parent >= 0, PlainFileRow.isPlain(name) {
                    let folder = folders.folder(of: entry.parent)
                    let excluder = entry.excludedBy < 0 ? nil : excluders.folder(of: entry.excludedBy)
                    if folder.isPlain, excluder?.isPlain != false {
                        let excludedBy: ArraySlice<UInt8> = excluder?.bytes.dropLast() ?? []
                        out.reserve(
                            PlainFileRow.maxBytesBesidesPath + folder.bytes.count + name.count + excludedBy.count)
                        folder.bytes.withUnsafeBufferPointer { folder in
                            excludedBy.withUnsafeBufferPointer {
                                PlainFileRow.write(
                                    entry, excludedBy: excluder == nil ? nil : $0, folder: folder, name: name,
                                    to: &out)
                            }
                        }
                        continue
                    }
                }
                row.removeAll(keepingCapacity: true)
                writer.write(index, path: folders.path(of: index), to: &row)
                out.append(row)
            }
        }
        // The stream puts the separator between chunks itself.
        return out.bytes()
    }
}

/// Rows of one folder come together: build the folder's path (and its slash) once, and replace only the
/// name after it from row to row, in one buffer (unique again once the caller lets the last path go).
private struct ParentPathCache {
    let inventory: Inventory
    private var parent: Int32 = -2
    private var current: [UInt8] = []
    private var prefixLength = 0
    /// Whether the folder's path (with its slash) is bytes a plain row writes verbatim.
    private var prefixIsPlain = false

    init(inventory: Inventory) { self.inventory = inventory }

    /// The path of `folder` with a trailing slash (empty for the root), and whether it is plain.
    mutating func folder(of folder: Int32) -> (bytes: ArraySlice<UInt8>, isPlain: Bool) {
        select(folder)
        return (current[0..<prefixLength], prefixIsPlain)
    }

    mutating func path(of index: Int32) -> [UInt8] {
        let entryParent = inventory.entries[Int(index)].parent
        guard entryParent >= 0 else { return [] }
        select(entryParent)
        current.append(contentsOf: inventory.name(index))
        return current
    }

    private mutating func select(_ folder: Int32) {
        if folder != parent {
            parent = folder
            current = inventory.path(folder)
            if !current.isEmpty { current.append(UInt8(ascii: "/")) }
            prefixLength = current.count
            prefixIsPlain = current.withUnsafeBufferPointer { PlainFileRow.isPlain($0) }
        } else {
            current.removeSubrange(prefixLength...)
        }
    }
}
