import StocktakeFiles
import StocktakeModel
import StocktakePropertyLists

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Something in a device set that Stocktake passed over, and why: a symbolic link it did not follow, a folder
/// that is not the device it looks like. For the caller to show (the listing's notes, the audit's issues).
public struct SetNote: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public var description: String { "\(path): \(message)" }

    /// `path` is a symbolic link, and was not followed.
    static func link(_ path: String) -> SetNote {
        var buffer = [CChar](repeating: 0, count: 4_097)
        let count = readlink(path, &buffer, 4_096)
        let target = count >= 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        let message = "a symbolic link (to \(target)): not followed, a device set is read without following links"
        return SetNote(path: path, message: message)
    }
}

/// Reads inside a device set as the walk reads a container: each step below the set's folder is looked at with
/// lstat before it is entered or opened, so no symbolic link is followed on the way (the last step of a file
/// is opened with `O_NOFOLLOW` as well); every link met is noted.
struct LinkGuard {
    private(set) var notes: [SetNote] = []

    /// `parent/name` when it is a folder; nil when it is missing or something else. A link is noted.
    mutating func folder(_ parent: String, _ name: String) -> String? { step(Paths.join(parent, name), .directory) }

    /// `parent/name` when it is a regular file; nil otherwise. A link is noted.
    mutating func file(_ parent: String, _ name: String) -> String? { step(Paths.join(parent, name), .regularFile) }

    /// The listing's entries that are folders; links among them are noted, not followed. A listing cut at its
    /// limit is noted too (the limit is far above what a real set holds, but a wrong folder may hold millions).
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

    /// `parent/name` read as a metadata plist when it is a regular file that parses; nil otherwise.
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
