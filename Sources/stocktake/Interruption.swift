import Dispatch
import Foundation
import StocktakeAudit

/// Work to undo if the process is interrupted: until `end()`, SIGINT and SIGTERM run `cleanUp` and then end the
/// process by the same signal, as if it had not been caught.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var handling = false
    private var sources: [any DispatchSourceSignal] = []
    private static let signals = [SIGINT, SIGTERM]

    init(_ cleanUp: @escaping @Sendable () -> Void) {
        sources = Self.signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                // A second signal while the first is cleaning up waits for it: the first ends the process.
                let first = lock.withLock { () -> Bool in
                    defer { handling = true }
                    return !handling
                }
                guard first else { return }
                cleanUp()
                // Raised in this thread with the signal unblocked here: libdispatch may read signals through a
                // signalfd (Linux) with them blocked in every thread, and would take a process-wide one back.
                signal(number, SIG_DFL)
                var only = sigset_t()
                sigemptyset(&only)
                sigaddset(&only, number)
                pthread_sigmask(SIG_UNBLOCK, &only, nil)
                raise(number)
            }
            source.resume()
            return source
        }
    }

    /// Stops listening. If a signal's clean-up is under way (its killing of devicectl may be what ended the
    /// work), waits for it to end the process rather than let the process exit first.
    func end() {
        let interrupted = lock.withLock { handling }
        if interrupted { while true { pause() } }
        for source in sources { source.cancel() }
        for number in Self.signals { signal(number, SIG_DFL) }
    }
}

extension Interruption {
    /// devicectl and a private folder for its copies, handed to `body`; the folder is removed however the command
    /// ends: returned, thrown, or stopped by SIGINT or SIGTERM (the running devicectl is killed first).
    static func withDevicectl<T, E: Error>(
        scratch prefix: String, _ wrap: (DeviceError) -> E, _ body: (DeviceControl, PrivateFolder) throws(E) -> T
    ) throws(E) -> T {
        let (control, scratch): (DeviceControl, PrivateFolder)
        do {
            (control, scratch) = (try DeviceControl(), try PrivateFolder(prefix: prefix))
        } catch {
            throw wrap(error)
        }
        let interruption = Interruption {
            control.stop()
            scratch.remove()
        }
        defer { interruption.end() }
        defer { scratch.remove() }
        return try body(control, scratch)
    }
}
