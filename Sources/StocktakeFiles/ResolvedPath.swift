#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a path leads, for checks links must not fool: "is the output folder `L/out` inside the audited container?"
/// must say yes when `L` links into it.
package enum ResolvedPath {
    /// The absolute path with every link resolved: `realpath` for the deepest part that exists, the rest (no link
    /// yet) appended with `.` and `..` applied.
    package static func of(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : Paths.join(currentDirectory(), path)
        var existing = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var missing: [String] = []
        while true {
            if let real = realPath("/" + existing.joined(separator: "/")) {
                return normalized(real, appending: missing)
            }
            guard let last = existing.popLast() else { return normalized("/", appending: missing) }
            missing.insert(last, at: 0)
        }
    }

    /// Whether `path` is `tree` or below it, by device and inode (bind mounts and case-insensitive file systems agree).
    package static func isInside(_ path: String, _ tree: String) -> Bool {
        var target = stat()
        guard stat(of(tree), &target) == 0 else { return false }
        var current = of(path)
        while true {
            var info = stat()
            if stat(current, &info) == 0 && info.st_dev == target.st_dev && info.st_ino == target.st_ino { return true }
            guard current != "/", current.contains("/") else { return false }
            current = Paths.parent(of: current)
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func currentDirectory() -> String {
        guard let folder = getcwd(nil, 0) else { return "." }
        defer { free(folder) }
        return String(cString: folder)
    }

    /// `base` (already resolved) with the components appended; `..` climbs, `.` stays.
    private static func normalized(_ base: String, appending components: [String]) -> String {
        var parts = base.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for component in components {
            switch component {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(component)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
