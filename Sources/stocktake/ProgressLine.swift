import Foundation
import StocktakeModel
import StocktakeScan

/// A progress line on stderr while walking (entries, bytes, rate), redrawn a few times a second, and
/// only when stderr is a terminal: cron logs and pipes stay clean.
final class ProgressLine: @unchecked Sendable {
    private let progress: ScanProgress
    private let started = Date()
    private let lock = NSLock()
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    static func startIfTerminal(_ progress: ScanProgress) -> ProgressLine? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let line = ProgressLine(progress: progress)
        line.draw()  // at once, so even a short audit shows it started
        Thread { line.loop() }.start()
        return line
    }

    private init(progress: ScanProgress) { self.progress = progress }

    func stop() {
        lock.withLock { running = false }
        finished.wait()
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func loop() {
        while lock.withLock({ running }) {
            Thread.sleep(forTimeInterval: 0.2)
            draw()
        }
        finished.signal()
    }

    private func draw() {
        let (entries, bytes) = progress.snapshot
        let text = Self.text(entries: entries, bytes: bytes, seconds: Date().timeIntervalSince(started))
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    static func text(entries: Int, bytes: Int64, seconds: Double) -> String {
        let rate = Int(Double(entries) / max(seconds, 0.001))
        return "scanning: \(Plural.count(entries, "entry", "entries")), \(ByteCount.format(bytes)), \(rate) entries/s"
    }
}
