import Dispatch
import Foundation

/// Work split into parts that run at the same time, written once for every parallel step (the walk, the
/// inventory's sort and totals, the backup resolver, hashing, the diff's two reads). The caller splits the
/// work so that no two parts write the same memory; the helpers only run the parts and wait.
public enum SideBySide {
    /// Runs `body(0)`, …, `body(count - 1)` on the system's worker threads (at most one per core) and returns
    /// when all are done. `body` may fill disjoint parts of a buffer or of local variables.
    public static func run(_ count: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            // The parts touch disjoint state (the caller's contract), which the compiler cannot see.
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: count) { body($0) }
        }
    }

    /// Each part's value, in part order.
    public static func values<Value>(_ count: Int, _ body: (Int) -> Value) -> [Value] {
        [Value](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let slots = buffer
            run(count) { (slots.baseAddress! + $0).initialize(to: body($0)) }
            initialized = count
        }
    }

    /// Runs the parts on threads of their own with the given stack size, for work that blocks on the disk
    /// (more parts than cores pay off) and returns when all are done.
    public static func onOwnThreads(_ count: Int, stackSize: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for part in 0..<count {
            group.enter()
            let thread = Thread {
                body(part)
                group.leave()
            }
            thread.stackSize = stackSize
            thread.start()
        }
        group.wait()
    }
}
