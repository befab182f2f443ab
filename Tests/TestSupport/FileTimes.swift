import Foundation

/// Sets access and modification times from Swift, the same on Linux and macOS (`utimensat(2)` is in both; GNU
/// `touch -d @SECONDS` is not in BSD `touch`). Links are dated themselves, never followed (`touch -h`).
package enum FileTimes {
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Dates `path` (a link itself, not its target) `seconds` after the epoch, access and modification alike.
    package static func set(_ path: String, to seconds: Int) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        guard utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw Failure(description: "utimensat \(path) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Dates `root` and everything under it (links themselves, not followed), as
    /// `find ROOT -exec touch -h -d @SECONDS {} +` does.
    package static func setRecursively(_ root: String, to seconds: Int) throws {
        try set(root, to: seconds)
        var info = stat()
        guard lstat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return }
        // lstat: a link to a folder is dated as a link and not entered.
        for name in try FileManager.default.contentsOfDirectory(atPath: root) {
            try setRecursively(root + "/" + name, to: seconds)
        }
    }
}
