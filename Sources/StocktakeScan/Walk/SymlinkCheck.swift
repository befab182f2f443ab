/// Whether a symlink's target, resolved by its text alone (nothing is followed), leaves the container.
package enum SymlinkCheck {
    /// `directory`: the folder holding the link, relative to the container root; `rootPath`: the root's absolute path.
    static func escapes(target: [UInt8], directory: [UInt8], rootPath: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/")
        if target.first == slash {
            let prefix = rootPath + [slash]
            guard target == rootPath || target.starts(with: prefix) else { return true }
            return !stays(depth: 0, following: target.dropFirst(min(target.count, prefix.count)))
        }
        return !stays(depth: directory.split(separator: slash).count, following: target)
    }

    /// Whether a relative target, followed from a folder `depth` levels below the root, stays within it.
    package static func stays(depth: Int, following target: some Collection<UInt8>) -> Bool {
        var depth = depth
        for step in target.split(separator: UInt8(ascii: "/")) {
            if step.elementsEqual(".".utf8) { continue }
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
