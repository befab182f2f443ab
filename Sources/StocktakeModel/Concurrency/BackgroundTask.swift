import Foundation

/// Work started on a thread of its own at once, its value collected later: the audit judges the inventory
/// on it while the main thread writes report.json's rows.
public final class BackgroundTask<Value: Sendable>: Sendable {
    private let latch = Latch<Value>()

    public init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [latch] in latch.set(work()) }
        // The main thread's size: rules and writers were written for it.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Whether the work is finished (`value` would not wait).
    public var isDone: Bool { latch.isSet }

    /// Waits for the work to finish (once; later calls return at once).
    public var value: Value { latch.wait() }
}

/// A value handed once from the thread that makes it to the threads that wait for it (BackgroundTask's; the
/// PostgreSQL history's blocking calls, which wait for a task with a limit).
public final class Latch<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?

    public init() {}

    /// Sets the value (the first one stays) and wakes every waiter.
    public func set(_ value: Value) {
        condition.withLock {
            if self.value == nil { self.value = value }
            condition.broadcast()
        }
    }

    /// Whether the value is set (`wait()` would not wait).
    public var isSet: Bool { condition.withLock { value != nil } }

    /// The value, once set.
    public func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }

    /// The value, or nil when `limit` passed first.
    public func wait(for limit: Duration) -> Value? {
        let deadline = Date(timeIntervalSinceNow: limit.inSeconds)
        condition.lock()
        defer { condition.unlock() }
        while value == nil && condition.wait(until: deadline) {}
        return value
    }
}
