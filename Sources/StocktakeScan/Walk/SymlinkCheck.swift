/// Whether a symlink's target, resolved by its text alone (nothing is followed), leaves the container.
enum SymlinkCheck {
    /// - Parameters:
    ///   - target: the link's stored target.
    ///   - directory: the path of the directory holding the link, relative to the container root.
    ///   - rootPath: the container root's absolute path.
    static func escapes(target: [UInt8], directory: [UInt8], rootPath: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/")
        var components: [ArraySlice<UInt8>]
        if target.first == slash {
            let prefix = rootPath + [slash]
            guard target == rootPath || target.starts(with: prefix) else { return true }
            components = target.dropFirst(min(target.count, prefix.count)).split(separator: slash)
            return !stays(within: [], following: components)
        }
        components = target.split(separator: slash)
        return !stays(within: directory.split(separator: slash), following: components)
    }

    private static func stays(within start: [ArraySlice<UInt8>], following steps: [ArraySlice<UInt8>]) -> Bool {
        var depth = start.count
        for step in steps {
            if step.isEmpty || step.elementsEqual(".".utf8) { continue }
            if step.elementsEqual("..".utf8) {
                depth -= 1
                if depth < 0 { return false }
            } else {
                depth += 1
            }
        }
        return true
    }
}
