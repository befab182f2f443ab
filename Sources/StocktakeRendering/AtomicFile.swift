import CStocktakeSystem
import StocktakeFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure writing an output file. The message names the file and the system's reason.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}

/// Writes a file atomically: a temporary file in the same folder, flushed to disk, then renamed over the
/// target. Readers see the old file or the whole new one, never half of it; on failure the temporary goes.
/// A run killed while writing leaves its temporary behind: `removeLeftovers` clears those.
public enum AtomicFile {
    public static func write(to path: String, _ produce: (_ write: @escaping ([UInt8]) throws -> Void) throws -> Void)
        throws
    {
        let (folder, base) = split(path)
        var template = Array(
            ((folder.hasSuffix("/") ? folder : folder + "/") + temporaryPrefix(base) + "XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw OutputError(path: path, reason: SystemError.currentText) }
        // Held while the temporary exists: the kernel drops it when this process dies, however it dies, which
        // is how `removeLeftovers` tells a killed run's temporary from one still being written.
        _ = flock(fd, LOCK_EX)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var closed = false
        do {
            let writer = BlockWriter(fd: fd, path: path)
            try produce { bytes in try writer.append(bytes) }
            try writer.finish()
            // mkstemp makes the file 0600; give it what any new file gets under the user's umask.
            fchmod(fd, 0o666 & ~currentUmask)
            closed = true
            guard close(fd) == 0 else { throw OutputError(path: path, reason: SystemError.currentText) }
            guard rename(temporary, path) == 0 else { throw OutputError(path: path, reason: SystemError.currentText) }
            syncFolder(folder)
        } catch {
            if !closed { close(fd) }
            unlink(temporary)
            throw error
        }
    }

    /// `.report.json.tmp-`: the temporary's name before mkstemp's six characters.
    public static func temporaryPrefix(_ base: String) -> String { "." + base + ".tmp-" }

    /// The folder holding `path` and its last component.
    private static func split(_ path: String) -> (folder: String, base: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return (folder, slash.map { String(path[path.index(after: $0)...]) } ?? path)
    }

    /// Removes the temporaries that killed runs left for `path`: only names `write` makes for this target
    /// (`.report.json.tmp-` and mkstemp's six letters or digits), only regular files this user owns, and only those no
    /// live writer holds: `write` keeps a lock on its temporary, which the kernel releases when the writer dies.
    /// Decided by liveness, not by time (a run killed in the second the next one starts left a temporary no clock could
    /// tell from a live one). Nothing else in the folder is touched. Best effort: returns the names it removed.
    @discardableResult public static func removeLeftovers(of path: String) -> [String] {
        let (folder, base) = split(path)
        let prefix = Array(temporaryPrefix(base).utf8)
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var removed: [String] = []
        while let entry = readdir(directory) {
            let name = DirectoryEntryName.bytes(of: entry)
            guard name.count == prefix.count + 6, name.starts(with: prefix),
                name[prefix.count...].allSatisfy({ isTemplateCharacter($0) })
            else { continue }
            let text = String(decoding: name, as: UTF8.self)
            var info = stat()
            guard fstatat(dirfd(directory), text, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG,
                info.st_uid == geteuid()
            else { continue }
            let fd = openat(dirfd(directory), text, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0, unlinkat(dirfd(directory), text, 0) == 0 else { continue }
            removed.append(text)
        }
        return removed
    }

    /// The characters mkstemp puts in place of `XXXXXX` (glibc and macOS alike: letters and digits).
    private static func isTemplateCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The process's umask (reading it means setting it; put straight back).
    private static var currentUmask: mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    /// Makes the rename durable: the folder's entry reaches the disk too.
    private static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = DurableSync.sync(fd)
        close(fd)
    }

    public static func write(_ bytes: [UInt8], to path: String) throws {
        try write(to: path) { write in try write(bytes) }
    }
}
