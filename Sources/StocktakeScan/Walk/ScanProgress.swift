import Foundation

/// Running counts of the walk, safe to read from another thread (the CLI's progress line polls it).
public final class ScanProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var entries = 0
    private var bytes: Int64 = 0

    public init() {}

    public var snapshot: (entries: Int, allocatedBytes: Int64) { lock.withLock { (entries, bytes) } }

    func add(entries count: Int, allocatedBytes: Int64) {
        lock.withLock {
            entries += count
            bytes += allocatedBytes
        }
    }
}
