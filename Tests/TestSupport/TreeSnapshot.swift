import Foundation

/// Everything observable about a tree without reading through links: paths, types, sizes, modes,
/// modification and status-change times. Two equal snapshots mean nothing was written.
package struct TreeSnapshot: Equatable, CustomStringConvertible {
    package let lines: [String]

    package init(_ root: String) {
        var lines: [String] = []
        func visit(_ path: String, _ relative: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else {
                lines.append("\(relative) missing")
                return
            }
            #if os(Linux)
                let (modified, changed) = (info.st_mtim, info.st_ctim)
            #else
                let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
            #endif
            lines.append(
                "\(relative) mode=\(info.st_mode) size=\(info.st_size) mtime=\(modified.tv_sec).\(modified.tv_nsec) ctime=\(changed.tv_sec).\(changed.tv_nsec)"
            )
            guard info.st_mode & S_IFMT == S_IFDIR else { return }
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() {
                visit(path + "/" + name, relative + "/" + name)
            }
        }
        visit(root, "")
        self.lines = lines
    }

    package var description: String { lines.joined(separator: "\n") }
}
