import Foundation
import StocktakeFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private temporary folder (`mkdtemp`) for what devicectl writes, removed however the audit ends (`remove()` from a
/// `defer` or a signal handler, at the latest when the last reference goes).
package final class PrivateFolder: @unchecked Sendable {
    package let path: String
    private let lock = NSLock()
    private var removed = false

    package init(prefix: String) throws(DeviceError) {
        var template = Array(Paths.join(NSTemporaryDirectory(), "\(prefix)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .scratch("\(NSTemporaryDirectory()): \(SystemError.currentText)")
        }
        path = String(cString: made)
    }

    deinit { remove() }

    /// Removes the folder and everything in it, once; a call while another removes it returns when it is gone.
    package func remove() {
        lock.withLock {
            guard !removed else { return }
            removed = true
            // The copy may have left folders without write or search permission: open them up first.
            if let walk = FileManager.default.enumerator(atPath: path) {
                for case let relative as String in walk {
                    let full = Paths.join(path, relative)
                    var info = stat()
                    if lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { chmod(full, 0o700) }
                }
            }
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
