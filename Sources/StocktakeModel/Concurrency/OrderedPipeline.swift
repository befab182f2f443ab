import Dispatch
import Foundation

/// Parts made on several threads and used in order on the calling thread: report.json's rows are formatted
/// by workers while the caller writes the finished chunks. At most `window` parts wait made but not used,
/// which bounds memory, and the lowest part not used is always made first, so the caller never waits on a
/// part nobody makes.
public enum OrderedPipeline {
    /// Makes parts `0..<count` with `make` on `workers` threads of their own (not the dispatch pool: the
    /// caller blocks on them, and a caller that is a pool thread must not starve them) and hands each to
    /// `use` in order. When `use` throws, workers start nothing more, and the error comes back once they stop.
    public static func run<Part: Sendable>(
        count: Int, workers: Int, window: Int, make: @escaping @Sendable (Int) -> Part, use: (Part) throws -> Void
    ) rethrows {
        guard count > 0 else { return }
        let parts = Window<Part>(count: count, window: window)
        let finished = DispatchGroup()
        for _ in 0..<max(1, min(workers, count)) {
            finished.enter()
            let thread = Thread {
                while let index = parts.claim() { parts.store(index, make(index)) }
                finished.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        defer {
            parts.cancel()
            finished.wait()
        }
        for index in 0..<count { try use(parts.take(index)) }
    }
}

/// The parts in flight, behind one lock.
private final class Window<Part: Sendable>: @unchecked Sendable {
    private let count: Int
    private let window: Int
    private var nextClaim = 0
    private var taken = 0
    private var cancelled = false
    private var parts: [Int: Part] = [:]
    private let condition = NSCondition()

    init(count: Int, window: Int) {
        self.count = count
        self.window = max(1, window)
    }

    /// The next part to make, or nil when all are claimed or the caller stopped.
    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && nextClaim < count && nextClaim - taken >= window { condition.wait() }
        guard !cancelled, nextClaim < count else { return nil }
        nextClaim += 1
        return nextClaim - 1
    }

    func store(_ index: Int, _ part: Part) {
        condition.lock()
        parts[index] = part
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for part `index` (taken in order) and frees its place in the window.
    func take(_ index: Int) -> Part {
        condition.lock()
        defer { condition.unlock() }
        while parts[index] == nil { condition.wait() }
        taken = index + 1
        condition.broadcast()
        return parts.removeValue(forKey: index)!
    }

    /// The caller is done (finished or failed): workers claim nothing more.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
