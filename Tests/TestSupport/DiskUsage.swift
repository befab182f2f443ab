import Foundation

/// The oracle for sizes: GNU `du` on Linux; on macOS, whose BSD `du` has no byte units, the same sums
/// (every entry under the path, hard links once, allocated = blocks × 512) taken by Python's `os.lstat`.
package enum DiskUsage {
    /// `du -s -B1 PATH` (allocated bytes) or `du -s -b PATH` (apparent bytes).
    package static func bytes(_ path: String, apparent: Bool = false) throws -> Int64 {
        #if os(Linux)
            let command = ["/usr/bin/du", "-s", apparent ? "-b" : "-B1", path]
        #else
            // os.fwalk and dir_fd: every call is relative to an open folder, so paths past macOS's PATH_MAX (1,024
            // bytes) are counted too (os.walk with whole paths fails on them with "File name too long").
            let script = """
                import os, sys
                seen, total = set(), 0
                def add(s):
                    global total
                    if (s.st_dev, s.st_ino) in seen: return
                    seen.add((s.st_dev, s.st_ino))
                    total += s.st_size if sys.argv[2] == "apparent" else s.st_blocks * 512
                add(os.lstat(sys.argv[1]))
                if os.path.isdir(sys.argv[1]) and not os.path.islink(sys.argv[1]):
                    for _, dirs, files, folder in os.fwalk(sys.argv[1]):
                        for name in dirs + files: add(os.lstat(name, dir_fd=folder))
                print(total)
                """
            let command = ["/usr/bin/python3", "-c", script, path, apparent ? "apparent" : "allocated"]
        #endif
        let result = try StocktakeProcess.runCommand(command)
        guard result.status == 0,
            let number = result.stdout.split(whereSeparator: { $0 == "\t" || $0 == "\n" }).first.flatMap({ Int64($0) })
        else {
            throw TemporaryTree.Failure(description: "du failed: \(result.stderr)")
        }
        return number
    }
}
