import Foundation

/// A uniquely named folder under the system temporary directory that tests fill with files,
/// folders, symbolic links and FIFOs. It removes itself (without following links) when released.
package final class TemporaryTree {
    /// Absolute path of the folder.
    package let root: String

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// `parent`: the folder to make it in (another file system than the temporary folder's, say).
    package init(_ label: String = "tree", in parent: String = NSTemporaryDirectory()) throws {
        let base = parent.hasSuffix("/") ? parent : parent + "/"
        root = base + "stocktake-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
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
