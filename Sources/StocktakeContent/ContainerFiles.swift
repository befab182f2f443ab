import Foundation
import StocktakeFiles

/// An open folder, closed with the object.
final class OpenFolder {
    let descriptor: Int32

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }
}

/// Opens a file the walk listed from the root, one component at a time without following a link, so a folder
/// swapped for a link after the walk is refused; keeps the last folder for its siblings. Not `Sendable`.
final class ContainerFiles {
    private let root: OpenFolder?
    private let rootError: Int32
    private var lastFolder: (path: ArraySlice<UInt8>, folder: OpenFolder)?

    init(root: String) {
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        self.root = descriptor >= 0 ? OpenFolder(descriptor) : nil
        rootError = descriptor >= 0 ? 0 : SystemError.current
    }

    /// Opens `path` (relative to the root, components separated by `/`) and the folder holding it.
    func openFile(_ path: [UInt8], maxBytes: Int64?) throws(FileRefusal) -> (file: RegularFile, folder: OpenFolder) {
        let split = path.lastIndex(of: UInt8(ascii: "/"))
        let folderPath = split.map { path[..<$0] } ?? []
        let name = split.map { Array(path[($0 + 1)...]) } ?? path
        let folder = try self.folder(folderPath)
        var options = RegularFile.Options.insideContainer(maxBytes: maxBytes)
        let file = try (name + [0]).withUnsafeBufferPointer { buffer throws(FileRefusal) in
            try buffer.withMemoryRebound(to: CChar.self) { name throws(FileRefusal) in
                try RegularFile.open(name.baseAddress!, in: folder.descriptor, options: &options)
            }
        }
        return (file, folder)
    }

    private func folder(_ path: ArraySlice<UInt8>) throws(FileRefusal) -> OpenFolder {
        guard let root else { throw .system(rootError) }
        if let last = lastFolder, last.path.elementsEqual(path) { return last.folder }
        var current = root
        for component in path.split(separator: UInt8(ascii: "/")) {
            let descriptor = (Array(component) + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    openat(current.descriptor, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                }
            }
            guard descriptor >= 0 else {
                let code = SystemError.current
                // A link where the walk saw a folder: Linux says ENOTDIR or ELOOP, the BSDs also EMLINK.
                if code == ELOOP || code == EMLINK || code == ENOTDIR { throw .symbolicLink }
                throw .system(code)
            }
            current = OpenFolder(descriptor)
        }
        lastFolder = (path, current)
        return current
    }

    /// A path SQLite can open that leads to the open file itself, not to whatever its name leads to now.
    static func descriptorPath(_ file: RegularFile) -> String {
        file.withDescriptor { descriptor in
            #if os(Linux)
                "/proc/self/fd/\(descriptor)"
            #else
                "/dev/fd/\(descriptor)"
            #endif
        }
    }
}
