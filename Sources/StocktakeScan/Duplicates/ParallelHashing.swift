import Dispatch
import Foundation
import StocktakeModel

/// Hashes a list of files on a few threads. Work is handed out in small runs of neighbours, so one big
/// file does not hold up a whole share and siblings stay on one thread.
enum ParallelHashing {
    static let runLength = 64

    static func run(_ files: [Int32], limit: Int64, threads: Int, rootFD: Int32, inventory: Inventory) -> [ContentHasher.Outcome] {
        guard !files.isEmpty else { return [] }
        let results = Results(count: files.count)
        let runs = RunQueue(count: files.count, runLength: runLength)
        DispatchQueue.concurrentPerform(iterations: min(threads, (files.count + runLength - 1) / runLength)) { _ in
            let hasher = ContentHasher(rootFD: rootFD, inventory: inventory)
            while let range = runs.next() {
                for position in range { results.set(position, hasher.digest(of: files[position], limit: limit)) }
            }
        }
        return results.all()
    }

    /// Hands out consecutive ranges of positions, each exactly once.
    private final class RunQueue: @unchecked Sendable {
        private let lock = NSLock()
        private var start = 0
        private let count: Int
        private let runLength: Int

        init(count: Int, runLength: Int) {
            self.count = count
            self.runLength = runLength
        }

        func next() -> Range<Int>? {
            lock.lock()
            defer { lock.unlock() }
            guard start < count else { return nil }
            let range = start..<min(count, start + runLength)
            start = range.upperBound
            return range
        }
    }

    /// One slot per file; each slot is written by exactly one worker, and read after all have finished.
    private final class Results: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<ContentHasher.Outcome?>

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func set(_ position: Int, _ outcome: ContentHasher.Outcome) { slots[position] = outcome }

        func all() -> [ContentHasher.Outcome] {
            slots.map { $0 ?? .failed(reason: .unreadable, detail: "cannot compare its content: it was not read") }
        }
    }
}
