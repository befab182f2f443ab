import Dispatch
import Foundation
import StocktakeModel

/// Hashes files on a few threads, handed out in small runs of neighbours: one big file holds up no whole share.
enum ParallelHashing {
    static let runLength = 64

    static func run(_ files: [Int32], limit: Int64, threads: Int, rootFD: Int32, inventory: Inventory)
        -> [ContentHasher.Outcome]
    {
        guard !files.isEmpty else { return [] }
        let runs = RunQueue(count: files.count, runLength: runLength)
        // Each worker returns the runs it took with their outcomes; every run is taken exactly once.
        let taken = SideBySide.values(min(threads, (files.count + runLength - 1) / runLength)) { _ in
            let hasher = ContentHasher(rootFD: rootFD, inventory: inventory)
            var done: [(start: Int, outcomes: [ContentHasher.Outcome])] = []
            while let range = runs.next() {
                done.append((range.lowerBound, range.map { hasher.digest(of: files[$0], limit: limit) }))
            }
            return done
        }
        var outcomes = [ContentHasher.Outcome](
            repeating: .failed(reason: .unreadable, detail: "cannot compare its content: it was not read"),
            count: files.count)
        for (start, run) in taken.joined() { outcomes.replaceSubrange(start..<start + run.count, with: run) }
        return outcomes
    }

    /// Hands out consecutive ranges of positions, each exactly once.
    private final class RunQueue: @unchecked Sendable {
        private let lock = NSLock()
        private var start = 0
        private let count: Int
        private let runLength: Int

        init(count: Int, runLength: Int) { (self.count, self.runLength) = (count, runLength) }

        func next() -> Range<Int>? {
            lock.withLock {
                guard start < count else { return nil }
                defer { start = min(count, start + runLength) }
                return start..<min(count, start + runLength)
            }
        }
    }
}
