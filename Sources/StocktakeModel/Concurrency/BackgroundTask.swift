import Foundation

/// Work started on a thread of its own at once, its value collected later: the audit judges the inventory
/// on it while the main thread writes report.json's rows.
public final class BackgroundTask<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Value?

    public init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = work()
            condition.lock()
            result = value
            condition.broadcast()
            condition.unlock()
        }
        // The main thread's size: rules and writers were written for it.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Whether the work is finished (`value` would not wait).
    public var isDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return result != nil
    }

    /// Waits for the work to finish (once; later calls return at once).
    public var value: Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return result!
    }
}
