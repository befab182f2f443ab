import Foundation

extension ReportReader {
    /// Both sides of a diff, read at the same time (each read is independent and mostly parsing, so two
    /// cores halve the wait on million-file reports). The first error, in argument order, is thrown.
    public static func read(old: String, new: String) throws(ReportReadError) -> (old: ReportSnapshot, new: ReportSnapshot) {
        let results = ResultPair()
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            let result = Result { () throws(ReportReadError) in try read(path: side == 0 ? old : new) }
            results.set(side, result)
        }
        return (try results.get(0).get(), try results.get(1).get())
    }
}

/// Two slots written by two threads, each once, and read after both finished.
private final class ResultPair: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<ReportSnapshot, ReportReadError>?] = [nil, nil]

    func set(_ side: Int, _ result: Result<ReportSnapshot, ReportReadError>) {
        lock.lock()
        slots[side] = result
        lock.unlock()
    }

    func get(_ side: Int) -> Result<ReportSnapshot, ReportReadError> {
        lock.lock()
        defer { lock.unlock() }
        return slots[side]!
    }
}
