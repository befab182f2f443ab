import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an export looks like on disk, cheaply: every entry's size and times summed, no content read. Two equal
/// signatures of one path mean nothing changed in between (a change sets the status-change time, which no copy
/// can set back); the nightly job keys "already audited" on it. Links are never followed.
public struct ExportSignature: Sendable, Hashable, Codable {
    public var entries: Int64 = 0
    public var apparentBytes: Int64 = 0
    /// Newest modification time of any entry (seconds since 1970).
    public var newestModified: Int64 = .min
    /// Newest status-change time of any entry, the input folder included (nanoseconds since 1970).
    public var newestChanged: Int64 = .min

    public init() {}

    /// Walks the input `path` (itself followed if it is a link); an archive is one file. Nil when it cannot be read.
    public static func of(path: String) -> ExportSignature? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var signature = ExportSignature()
        signature.add(info)
        if (info.st_mode & S_IFMT) == S_IFREG { return signature }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        // Paths as bytes: a name that is not UTF-8 must still be found again.
        var folders: [[CChar]] = [Array(path.utf8CString.dropLast())]
        while let folder = folders.popLast() {
            guard let directory = opendir(folder + [0]) else { return nil }
            defer { closedir(directory) }
            let descriptor = dirfd(directory)
            while let entry = readdir(directory) {
                let name = DirectoryEntryName.bytes(of: entry).map { CChar(bitPattern: $0) }
                if name == [46] || name == [46, 46] { continue }  // "." and ".."
                guard fstatat(descriptor, name + [0], &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
                signature.add(info)
                if (info.st_mode & S_IFMT) == S_IFDIR { folders.append(folder + [47] + name) }  // "/"
            }
        }
        return signature
    }

    private mutating func add(_ info: stat) {
        entries += 1
        apparentBytes = apparentBytes.addingReportingOverflow(Int64(info.st_size)).partialValue
        newestModified = max(newestModified, info.modificationSeconds)
        newestChanged = max(newestChanged, info.changeNanoseconds)
    }
}
