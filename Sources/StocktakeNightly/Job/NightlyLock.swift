import Foundation
import StocktakeFiles

/// One nightly run at a time per reports folder: a `flock`, which the kernel drops however the process ends (unlike a
/// PID file). The holder's PID is written into the file for the message.
final class NightlyLock {
    static let fileName = ".stocktake-nightly.lock"
    private let descriptor: Int32

    init(reportsPath: String) throws(NightlyError) {
        let path = Paths.join(reportsPath, Self.fileName)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw .unusable("cannot open the lock file \(path): \(SystemError.currentText)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno  // before pread and close can change it
            let holder = Self.holder(fd)
            close(fd)
            if code == EWOULDBLOCK {
                throw .busy(
                    "another nightly run\(holder.map { " (pid \($0))" } ?? "") holds the lock on \(reportsPath); try again later"
                )
            }
            throw .unusable("cannot lock \(path): \(SystemError.text(code))")
        }
        descriptor = fd
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    deinit { close(descriptor) }

    private static func holder(_ fd: Int32) -> String? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty || !text.allSatisfy(\.isNumber) ? nil : text
    }
}
