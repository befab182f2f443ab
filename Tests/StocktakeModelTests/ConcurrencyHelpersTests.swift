import Foundation
import StocktakeModel
import Testing

/// The thread helpers every parallel step uses: parts run, values come back in part order, a pipeline hands
/// its parts over in order with no more than its window waiting, and an error stops it.
@Suite struct ConcurrencyHelpersTests {
    @Test func sideBySideValuesComeBackInPartOrder() {
        #expect(SideBySide.values(64) { $0 * $0 } == (0..<64).map { $0 * $0 })
        #expect(SideBySide.values(0) { $0 }.isEmpty)
    }

    @Test func sideBySideRunsEveryPartOnceIntoDisjointSlots() {
        var slots = [Int](repeating: 0, count: 1000)
        slots.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            SideBySide.run(10) { part in
                for i in part * 100..<(part + 1) * 100 { buffer[i] += i + 1 }
            }
        }
        #expect(slots == (1...1000).map { $0 })
    }

    @Test func ownThreadsRunEveryPartBeforeReturning() {
        let seen = Counter()
        SideBySide.onOwnThreads(8, stackSize: 1 << 20) { part in seen.add(part) }
        #expect(seen.total == (0..<8).reduce(0, +))
    }

    @Test func aPipelineUsesPartsInOrderWithinItsWindow() {
        let made = Counter()
        var used: [Int] = []
        OrderedPipeline.run(
            count: 200, workers: 4, window: 3,
            make: { index in
                made.add(1)
                return index
            }
        ) { part in
            // Parts made but not yet used never exceed the window (one more may be in the making per worker).
            #expect(made.total - used.count <= 3 + 4)
            used.append(part)
        }
        #expect(used == Array(0..<200))
    }

    @Test func aFailingUserStopsThePipelineAndGetsItsError() {
        struct Stop: Error {}
        let made = Counter()
        #expect(throws: Stop.self) {
            try OrderedPipeline.run(
                count: 10_000, workers: 2, window: 2,
                make: { index in
                    made.add(1)
                    return index
                }
            ) { part in
                if part == 5 { throw Stop() }
            }
        }
        #expect(made.total < 100, "workers went on after the error: \(made.total) parts made")
    }
}

/// A total added to from several threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func add(_ amount: Int) {
        lock.lock()
        value += amount
        lock.unlock()
    }

    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
