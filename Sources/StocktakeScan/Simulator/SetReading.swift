import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Something in a device set that Stocktake passed over, and why (a link not followed, a folder that is not the
/// device it looks like), for the caller to show.
public struct SetNote: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public var description: String { "\(path): \(message)" }

    static func link(_ path: String) -> SetNote {
        var buffer = [CChar](repeating: 0, count: 4_097)
        let count = readlink(path, &buffer, 4_096)
        let target = count >= 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        let message = "a symbolic link (to \(target)): not followed, a device set is read without following links"
        return SetNote(path: path, message: message)
    }
}

/// Reads inside a device set as the walk reads a container: each step below the set's folder is lstat'ed before it
/// is entered or opened (a file also with `O_NOFOLLOW`), so no link is followed; every link met is noted.
struct LinkGuard {
    private(set) var notes: [SetNote] = []

    /// `parent/name` when it is a folder (for `file`, a regular file); nil otherwise. A link is noted.
    mutating func folder(_ parent: String, _ name: String) -> String? { step(Paths.join(parent, name), .directory) }

    mutating func file(_ parent: String, _ name: String) -> String? { step(Paths.join(parent, name), .regularFile) }

    /// The folders in `parent`; links are noted, and so is a listing cut at its limit (a wrong folder may hold millions).
    mutating func folders(in parent: String, limit: Int) -> [String] {
        guard let listing = try? DirectoryListing.read(parent, limit: limit) else { return [] }
        if listing.isTruncated {
            let message = "holds more than \(limit) entries: only the first \(limit) were read"
            notes.append(SetNote(path: parent, message: message))
        }
        var names: [String] = []
        for entry in listing.entries {
            switch entry.kind {
            case .directory: names.append(entry.name)
            case .symbolicLink: notes.append(.link(Paths.join(parent, entry.name)))
            default: continue
            }
        }
        return names.sorted()
    }

    mutating func plist(_ parent: String, _ name: String) -> PropertyListValue? {
        guard let path = file(parent, name) else { return nil }
        return try? PropertyListReader.read(contentsOfFile: path, maxBytes: PropertyListReader.metadataLimit)
    }

    mutating func note(_ note: SetNote) { notes.append(note) }

    private mutating func step(_ path: String, _ wanted: FileKind) -> String? {
        switch FileKind(path: path) {
        case wanted: return path
        case .symbolicLink:
            // Steps are retraced (`Data` leads to two kinds of container): each link is said once.
            if !notes.contains(where: { $0.path == path }) { notes.append(.link(path)) }
            return nil
        default: return nil
        }
    }
}
