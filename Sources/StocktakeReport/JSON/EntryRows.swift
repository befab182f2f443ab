import Foundation
import StocktakeModel
import StocktakeRendering

/// Renders the rows of `files[]` or `directories[]` on all cores: the rows are cut into chunks, a wave of
/// chunks is formatted in parallel, and the chunks are handed on in order, so the output is the same as
/// a sequential writer's while the wall time of the largest part of the report is divided by the cores.
struct EntryRows: Sendable {
    let inventory: Inventory
    let rows: [Int32]
    let separator: [UInt8]
    static let chunkSize = 8192

    func write(_ emit: ([UInt8]) throws -> Void) throws {
        let chunks = stride(from: 0, to: rows.count, by: Self.chunkSize).map { $0..<min($0 + Self.chunkSize, rows.count) }
        let wave = max(1, 2 * ProcessInfo.processInfo.activeProcessorCount)
        for waveStart in stride(from: 0, to: chunks.count, by: wave) {
            let batch = Array(chunks[waveStart..<min(waveStart + wave, chunks.count)])
            let rendered = RenderedChunks(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { i in
                rendered.store(i, render(batch[i]))
            }
            for i in 0..<batch.count {
                switch rendered.take(i) {
                case .success(let bytes): try emit(bytes)
                case .failure(let error): throw error
                case nil: continue
                }
            }
        }
    }

    private func render(_ range: Range<Int>) -> Result<[UInt8], Error> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count * 320)
        let json = JSONStream { bytes.append(contentsOf: $0) }
        var writer = EntryJSON(inventory: inventory)
        var folders = ParentPathCache(inventory: inventory)
        do {
            for position in range {
                if position != range.lowerBound { bytes.append(contentsOf: separator) }
                let index = rows[position]
                try writer.write(index, path: folders.path(of: index), to: json)
                try json.flush()
            }
        } catch {
            return .failure(error)
        }
        // The stream puts the separator between chunks itself.
        return .success(bytes)
    }
}

/// Results of one wave, each slot written by exactly one worker before the wave ends.
private final class RenderedChunks: @unchecked Sendable {
    private var slots: [Result<[UInt8], Error>?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ index: Int, _ result: Result<[UInt8], Error>) {
        lock.withLock { slots[index] = result }
    }

    func take(_ index: Int) -> Result<[UInt8], Error>? {
        lock.withLock {
            defer { slots[index] = nil }
            return slots[index]
        }
    }
}

/// Rows of one folder come together: build the folder's path once and append each name to it.
private struct ParentPathCache {
    let inventory: Inventory
    private var parent: Int32 = -2
    private var parentPath: [UInt8] = []

    init(inventory: Inventory) { self.inventory = inventory }

    mutating func path(of index: Int32) -> [UInt8] {
        let entryParent = inventory.entries[Int(index)].parent
        guard entryParent >= 0 else { return [] }
        if entryParent != parent {
            parent = entryParent
            parentPath = inventory.path(entryParent)
        }
        return parentPath.isEmpty ? Array(inventory.name(index)) : parentPath + [UInt8(ascii: "/")] + inventory.name(index)
    }
}
