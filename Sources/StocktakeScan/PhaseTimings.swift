import Foundation
import StocktakeModel

/// Wall time of each phase of one audit, in the order the phases ran, for `stocktake audit --timings`:
/// the next slowdown shows which phase it is in without a profiler. Phases may be recorded from any
/// thread.
public final class PhaseTimings: @unchecked Sendable {
    private var recorded: [(name: String, seconds: Double)] = []
    private let lock = NSLock()
    private let created = ContinuousClock.now

    public init() {}

    public var phases: [(name: String, seconds: Double)] { lock.withLock { recorded } }

    public func record(_ name: String, seconds: Double) {
        lock.withLock { recorded.append((name, seconds)) }
    }

    public func measure<T, Failure: Error>(_ name: String, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        let start = ContinuousClock.now
        defer { record(name, seconds: (ContinuousClock.now - start).inSeconds) }
        return try body()
    }

    /// One line per phase (`walk 0.412 s`), then the wall time since these timings were created, for
    /// standard error.
    public var text: String {
        let phases = phases + [("total", (ContinuousClock.now - created).inSeconds)]
        let width = phases.map(\.name.count).max() ?? 0
        let lines = phases.map {
            "timings: \($0.name.padding(toLength: width, withPad: " ", startingAt: 0)) \(String(format: "%.3f", $0.seconds)) s"
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Optional where Wrapped == PhaseTimings {
    /// `measure` when timings are wanted, else just `body`.
    public func measure<T, Failure: Error>(_ name: String, _ body: () throws(Failure) -> T) throws(Failure) -> T {
        guard let timings = self else { return try body() }
        return try timings.measure(name, body)
    }
}
