import Foundation
import StocktakeModel

/// Wall time of each phase of one audit, for `--timings`: a slowdown shows its phase without a profiler. Any thread.
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

    /// One line per phase (`walk 0.412 s`), then the total, for standard error.
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
