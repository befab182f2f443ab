import Foundation

/// A uniquely named folder under the system temporary directory that tests fill with files,
/// folders, symbolic links and FIFOs. It removes itself (without following links) when released.
/// Its `root` is a real path (no symbolic link in it), whatever links lead to the temporary folder.
package final class TemporaryTree {
    /// Absolute path of the folder.
    package let root: String

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// `parent`: the folder to make it in (another file system than the temporary folder's, say); by default the
    /// system's temporary folder. `root` is the folder's real path, every link resolved, as the tool prints paths.
    package init(_ label: String = "tree", in parent: String? = nil) throws {
        root = try Self.makeFolder(label, in: parent)
    }

    /// Every folder made, removed when the test process exits if nothing removed it before: a tree a static
    /// fixture holds is never released, and a file handed back by path has no owner.
    nonisolated(unsafe) private static var madeFolders: [String] = []
    private static let madeLock = NSLock()
    private static let removesAtExit: Void = { atexit { TemporaryTree.madeFolders.forEach(TemporaryTree.remove) } }()

    /// Creates a uniquely named folder `stocktake-LABEL-UUID` in `parent` (by default the system's temporary
    /// folder: `$TMPDIR` or `/tmp` on Linux, `/var/folders/…/T` on macOS) and returns its real path. On macOS
    /// `/var` is a link to `/private/var` and the tool prints real paths, so a test comparing what it printed
    /// with a path it built must start from the real one. `realpath(3)`, not Foundation's
    /// `resolvingSymlinksInPath`, which on Darwin strips a leading `/private` again.
    /// Nothing removes the folder: `TemporaryTree` does, when released.
    package static func makeFolder(_ label: String, in parent: String? = nil) throws -> String {
        let parent = parent ?? NSTemporaryDirectory()
        let made = (parent.hasSuffix("/") ? parent : parent + "/") + "stocktake-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: false)
        guard let resolved = realpath(made, nil) else {
            let reason = errno
            try? FileManager.default.removeItem(atPath: made)
            throw Failure(description: "realpath \(made) failed with errno \(reason)")
        }
        defer { free(resolved) }
        let path = String(cString: resolved)
        madeLock.withLock {
            _ = removesAtExit
            madeFolders.append(path)
        }
        return path
    }

    deinit { Self.remove(root) }

    /// Removes a folder without following links; `rm` where a path inside is longer than Foundation can remove.
    private static func remove(_ path: String) {
        guard FileManager.default.fileExists(atPath: path), (try? FileManager.default.removeItem(atPath: path)) == nil
        else { return }
        _ = try? StocktakeProcess.runCommand(["/bin/rm", "-rf", path])
    }

    /// Absolute path of a path relative to the tree (`""` is the root).
    package func path(_ relativePath: String) -> String {
        relativePath.isEmpty ? root : root + "/" + relativePath
    }

    /// Writes a file, creating its parent folders.
    package func write(_ relativePath: String, bytes: [UInt8]) throws {
        try makeParent(of: relativePath)
        guard FileManager.default.createFile(atPath: path(relativePath), contents: Data(bytes)) else {
            throw Failure(description: "cannot write \(path(relativePath))")
        }
    }

    package func write(_ relativePath: String, string: String) throws {
        try write(relativePath, bytes: Array(string.utf8))
    }

    /// Creates a folder and its missing parents.
    package func mkdir(_ relativePath: String) throws {
        try FileManager.default.createDirectory(atPath: path(relativePath), withIntermediateDirectories: true)
    }

    /// Creates a symbolic link at `relativePath` whose target is `destination`, stored verbatim
    /// (relative targets resolve against the link's folder).
    package func symlink(_ relativePath: String, to destination: String) throws {
        try makeParent(of: relativePath)
        try FileManager.default.createSymbolicLink(atPath: path(relativePath), withDestinationPath: destination)
    }

    /// Creates a named pipe: reading it would block until a writer appears.
    package func mkfifo(_ relativePath: String) throws {
        try makeParent(of: relativePath)
        guard makeFIFO(path(relativePath)) == 0 else {
            throw Failure(description: "mkfifo \(path(relativePath)) failed with errno \(errno)")
        }
    }

    private func makeParent(of relativePath: String) throws {
        let parent = (path(relativePath) as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    }
}

/// At file scope `mkfifo` is the C function, not the method above.
private func makeFIFO(_ path: String) -> Int32 {
    mkfifo(path, 0o644)
}
