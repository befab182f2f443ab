import Foundation
import StocktakeFiles

/// A private temporary folder for the copies SQLite must read as files, removed with them by its last holder.
package final class ScratchFolder: Sendable {
    package let path: String

    /// Nil when the system's temporary folder takes no new folder (`SystemError.currentText` says why).
    package init?(_ prefix: String) {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        // Made and registered under the lock: a signal's clean-up never runs between the two.
        let made = Self.lock.withLock {
            Self.closed ? nil : mkdtemp(&template).map { Self.live.insert(String(cString: $0)).1 }
        }
        guard let made else { return nil }
        path = made
    }

    deinit {
        Self.lock.withLock { _ = Self.live.remove(path) }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The folders not yet removed: an archive's kept members can reach gigabytes, and a job stopped by a signal
    /// (cron's timeout, Ctrl-C) would otherwise leave them in the temporary folder.
    nonisolated(unsafe) private static var live: Set<String> = []
    /// Set by `removeAll`: no folder or file is made after it, so none is left behind.
    nonisolated(unsafe) private static var closed = false
    private static let lock = NSLock()

    /// Removes every scratch folder still alive, and refuses new files; for a signal handler, just before the process
    /// ends. A file being written stays open, unlinked, until the process ends.
    package static func removeAll() {
        lock.withLock {
            closed = true
            for path in live { try? FileManager.default.removeItem(atPath: path) }
        }
    }

    /// A new private file holding `bytes`; a scratch copy, so no rename and no sync. Nil when it cannot be written.
    package func store(_ name: String, _ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { all in
            var pending = all
            return store(name) { () -> UnsafeRawBufferPointer in
                defer { pending = UnsafeRawBufferPointer(start: nil, count: 0) }
                return pending
            }
        }
    }

    /// A new private file written from `next` (called until it returns no bytes), so that a large entry is never
    /// held whole; nil when it cannot be written. What `next` throws removes the file and is rethrown.
    package func store<Failure: Error>(_ name: String, chunks next: () throws(Failure) -> UnsafeRawBufferPointer)
        throws(Failure) -> String?
    {
        let file = Paths.join(path, name)
        // Made under the lock, so `removeAll` sees every file made before it.
        let descriptor = Self.lock.withLock {
            Self.closed ? -1 : open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        do throws(Failure) {
            while case let chunk = try next(), !chunk.isEmpty {
                var written = 0
                while written < chunk.count {
                    let count = write(descriptor, chunk.baseAddress! + written, chunk.count - written)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else {
                        unlink(file)
                        return nil
                    }
                    written += count
                }
            }
        } catch {
            unlink(file)
            throw error
        }
        return file
    }
}
