import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path names, seen with lstat: a symbolic link is reported as a link, never followed.
enum FileKind: Equatable {
    case missing, directory, regularFile, symbolicLink, other

    init(path: String) {
        var status = stat()
        self = lstat(path, &status) == 0 ? FileKind(mode: status.st_mode) : .missing
    }

    init(mode: mode_t) { self.init(POSIX.entryType(mode: mode)) }

    init(_ type: EntryType) {
        switch type {
        case .directory: self = .directory
        case .file: self = .regularFile
        case .symlink: self = .symbolicLink
        default: self = .other
        }
    }
}

/// The names and kinds (no link followed) of one folder's entries, bounded: a wrong input may hold millions.
struct DirectoryListing {
    struct Entry: Equatable {
        /// Decoded as UTF-8: one that is not UTF-8 can never equal a name this module looks for.
        let name: String
        let kind: FileKind
    }

    let entries: [Entry]
    let isTruncated: Bool

    struct Failure: Error {
        let reason: String
    }

    static func read(_ path: String, limit: Int = 10_000) throws(Failure) -> DirectoryListing {
        guard let directory = opendir(path) else { throw Failure(reason: SystemError.currentText) }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            // The bytes up to the terminating zero, read in place (see DirectoryEntryName).
            let nameBytes = DirectoryEntryName.bytes(of: entry)
            let name = String(decoding: nameBytes, as: UTF8.self)
            if name == "." || name == ".." { continue }
            guard entries.count < limit else { return DirectoryListing(entries: entries, isTruncated: true) }
            var status = stat()
            let kind =
                fstatat(descriptor, nameBytes.map { CChar(bitPattern: $0) } + [0], &status, AT_SYMLINK_NOFOLLOW) == 0
                ? FileKind(mode: status.st_mode) : .missing
            entries.append(Entry(name: name, kind: kind))
        }
        return DirectoryListing(entries: entries, isTruncated: false)
    }
}
