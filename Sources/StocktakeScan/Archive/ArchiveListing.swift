import StocktakeContent
import StocktakeModel
import StocktakePropertyLists

/// What the first pass keeps of one archive entry: its header facts and what its first bytes said. What few
/// entries have (a link's target, a sidecar's reading, why the data is unreadable) is boxed apart, so that a million
/// plain entries take 32 bytes each, not 88.
struct ArchiveMember {
    /// Position among the archive's headers, for the hashing pass.
    let ordinal: Int32
    let type: EntryType
    let attributeFlag: ExclusionFlag
    /// Whether any of its attributes travelled from the Mac or device (see `BackupAttributes.isTransported`).
    let transportedAttributes: Bool
    let kind: ContentKind
    let size: Int64
    let modified: Int64
    private let rare: Rare?

    private final class Rare {
        let sidecar: SidecarReading
        let symlinkTarget: [UInt8]?
        let hardLinkTarget: [UInt8]?
        let unreadable: String?

        init(_ sidecar: SidecarReading, _ symlinkTarget: [UInt8]?, _ hardLinkTarget: [UInt8]?, _ unreadable: String?) {
            (self.sidecar, self.symlinkTarget, self.hardLinkTarget, self.unreadable) =
                (sidecar, symlinkTarget, hardLinkTarget, unreadable)
        }
    }

    var sidecar: SidecarReading { rare?.sidecar ?? .notSidecar }
    var symlinkTarget: [UInt8]? { rare?.symlinkTarget }
    /// For a hard link: the normalised path of the entry it names again.
    var hardLinkTarget: [UInt8]? { rare?.hardLinkTarget }
    /// Why its data could not be read (an unsupported method, encryption, a bad checksum); nil when read.
    var unreadable: String? { rare?.unreadable }

    init(
        ordinal: Int32, type: EntryType, size: Int64, modified: Int64, attributeFlag: ExclusionFlag,
        transportedAttributes: Bool, kind: ContentKind, sidecar: SidecarReading, symlinkTarget: [UInt8]?,
        hardLinkTarget: [UInt8]?, unreadable: String?
    ) {
        (self.ordinal, self.type, self.size, self.modified) = (ordinal, type, size, modified)
        (self.attributeFlag, self.transportedAttributes, self.kind) = (attributeFlag, transportedAttributes, kind)
        let plain = symlinkTarget == nil && hardLinkTarget == nil && unreadable == nil
        rare =
            if case .notSidecar = sidecar, plain { nil } else {
                Rare(sidecar, symlinkTarget, hardLinkTarget, unreadable)
            }
    }
}

/// A `._name` file's reading: no AppleDouble header, the strongest flag it carries, or why it did not parse.
enum SidecarReading {
    case notSidecar
    case flag(ExclusionFlag)
    case malformed(String)
}

/// A metadata plist's bytes (at most `ArchiveListing.metadataLimit`), or why they were not kept.
enum MetadataBytes {
    case bytes([UInt8])
    case problem(String)
}

/// The first pass over an archive: every header, each entry's first bytes (content kind, AppleDouble sidecars,
/// the metadata plists layout detection reads), never a whole entry in memory.
struct ArchiveListing {
    var members: [ArchiveMember] = []
    /// The members by normalised path (`ArchiveName`), built as they are listed: a member keeps no path of its own.
    var tree = ArchiveTree()
    /// The last member's path, to say where a damaged archive broke.
    var lastPath: [UInt8]?
    /// Flagged AppleDouble sidecars under a `__MACOSX/` folder, by path: they describe an entry elsewhere.
    var sequesteredSidecars: [(path: [UInt8], flag: ExclusionFlag)] = []
    /// Entries left out because of their names (`..`, absolute, empty), keyed by the name as stored.
    var refused: [ScanIssue] = []
    /// Candidate metadata plists (`AppDataInfo.plist`, the container-manager plist) near the top, by path.
    var metadata: [[UInt8]: MetadataBytes] = [:]
    var format = "unknown"
    var compression = "none"
    /// What the content checks will read, kept as the pass goes; nil when they do not run.
    var capture: ContentCapture?

    /// Real metadata plists are a few hundred bytes; as for folders, 1 MiB bounds the read.
    static let metadataLimit = PropertyListReader.metadataLimit
    /// Metadata plists deeper than this (wrapper/package/AppData/plist) cannot decide the layout.
    static let metadataDepth = 4

    static func read(_ stream: ArchiveStream, progress: ScanProgress?, capturingContent: Bool = false) throws(ScanError)
        -> ArchiveListing
    {
        var listing = ArchiveListing()
        // Without a temporary folder nothing is kept: the content checks then copy what they need, or go without.
        if capturingContent { listing.capture = ContentCapture() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: metadataLimit + 1, alignment: 8)
        defer { buffer.deallocate() }
        var ordinal: Int32 = 0
        var pending = 0
        var declared: Int64 = 0
        let maxDeclared = ArchiveLimits.maxDeclaredBytes(archiveBytes: stream.fileBytes)
        while true {
            let header: ArchiveHeader?
            do {
                header = try stream.next()
            } catch {
                let place = listing.lastPath.map { "after the entry " + shown($0) } ?? "at its start"
                throw .unreadableRoot(path: stream.path, reason: damaged(place, error.message))
            }
            guard let header else { break }
            // Before the entry's data is read or skipped: skipping is decompressing.
            declared = declared.addingReportingOverflow(header.size).overflow ? .max : declared + header.size
            guard declared <= maxDeclared else {
                throw .unreadableRoot(
                    path: stream.path,
                    reason: expansionRefused(
                        header.name.map(shown) ?? "entry \(ordinal + 1)", declared: declared,
                        archiveBytes: stream.fileBytes))
            }
            defer { ordinal += 1 }
            if ordinal == 0 { (listing.format, listing.compression) = stream.format }
            guard let name = header.name else {
                listing.refused.append(
                    ScanIssue(
                        path: Array("(entry \(ordinal + 1))".utf8), reason: .unreadable,
                        detail:
                            "archive entry left out: its name is not valid in the character set the archive declares"))
                continue
            }
            switch ArchiveName.normalize(name) {
            case .refused(let why):
                listing.refused.append(
                    ScanIssue(
                        path: name, reason: .unreadable,
                        detail: "archive entry left out: \(why); nothing is extracted, so nothing was written there"))
            case .root:
                continue
            case .path(let path):
                let member = try listing.member(
                    ordinal: ordinal, path: path, header: header, stream: stream, buffer: buffer)
                listing.tree.insert(member, path: path, at: Int32(listing.members.count))
                listing.members.append(member)
                listing.lastPath = path
                if member.type == .file, case .flag(let flag) = member.sidecar,
                    path.split(separator: UInt8(ascii: "/")).contains(where: { $0.elementsEqual("__MACOSX".utf8) })
                {
                    listing.sequesteredSidecars.append((path, flag))
                }
            }
            pending += 1
            if pending == 4096 {
                progress?.add(entries: pending, allocatedBytes: 0)
                pending = 0
            }
        }
        progress?.add(entries: pending, allocatedBytes: 0)
        return listing
    }

    /// The member a node holds; nil for a folder only its paths imply.
    func member(of node: Int32) -> ArchiveMember? {
        let index = tree.nodes[Int(node)].member
        return index >= 0 ? members[Int(index)] : nil
    }

    /// What stands at `relative` below `folder`, as the folder checks see it: a link is a link, never followed.
    func kind(_ folder: Int32, _ relative: String) -> FileKind {
        tree.node(at: Array(relative.utf8), from: folder).map(kind(of:)) ?? .missing
    }

    func kind(of node: Int32) -> FileKind {
        tree.nodes[Int(node)].isDirectory ? .directory : FileKind(member(of: node)?.type ?? .unknown)
    }

    static func expansionRefused(_ entry: String, declared: Int64, archiveBytes: Int64) -> String {
        "refused as a decompression bomb: by its entry \(entry) the archive declares \(declared) bytes of data in a file of "
            + "\(archiveBytes) bytes, more than \(ArchiveLimits.maxExpansion) times its size (and more than "
            + "\(ArchiveLimits.minDeclaredBytes) bytes); if it is a real export, extract it with a tool you trust and audit the folder"
    }

    /// Reads what the entry's kind needs of its data: nothing, the sniffing prefix, a sidecar's table or a metadata plist.
    private mutating func member(
        ordinal: Int32, path: [UInt8], header: ArchiveHeader, stream: ArchiveStream,
        buffer: UnsafeMutableRawBufferPointer
    ) throws(ScanError) -> ArchiveMember {
        let name = path.lastIndex(of: UInt8(ascii: "/")).map { Array(path[($0 + 1)...]) } ?? path
        let (flag, transported) = BackupAttributes.reading(attributeNames: header.attributeNames)
        var kind = ContentKind.unknown
        var sidecar = SidecarReading.notSidecar
        var unreadable: String?
        var hardLink: [UInt8]?
        // A hard link out of the tree names nothing the archive holds: not an empty file.
        switch header.hardLinkTarget.map(ArchiveName.normalize) {
        case .path(let normalised)?: hardLink = normalised
        case .refused(let why)?: unreadable = "a hard link whose target is refused (\(why)): size unknown"
        case .root?: unreadable = "a hard link to the archive's root folder: size unknown"
        case nil: break
        }
        if header.type == .file && header.hardLinkTarget == nil {
            let wanted = wantedBytes(name: name, path: path, size: header.size)
            var count = 0
            if wanted > 0 {
                do {
                    count = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
                } catch {
                    try Self.throwIfFatal(error, in: path, of: stream)
                    unreadable = error.message
                }
            }
            let prefix = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            kind = name.withUnsafeBufferPointer { name in
                if let settled = ContentSniffer.kind(name: name, size: header.size) { return settled }
                return unreadable == nil
                    ? ContentSniffer.kind(
                        prefix: UnsafeRawBufferPointer(rebasing: prefix.prefix(ContentSniffer.prefixLength)), name: name
                    ) : .unknown
            }
            if unreadable == nil, let bytes = capture?.wanted(kind: kind, size: header.size) {
                do {
                    try capture?.keep(ordinal: ordinal, kind: kind, bytes: bytes, prefix: prefix, stream: stream)
                } catch {
                    try Self.throwIfFatal(error, in: path, of: stream)
                }
            }
            if unreadable == nil {
                if Self.isSidecarName(name) { sidecar = Self.sidecar(prefix, size: header.size) }
                if Self.isMetadataCandidate(name: name, path: path) {
                    metadata[path] =
                        count > Self.metadataLimit
                        ? .problem("larger than \(Self.metadataLimit) bytes: not read") : .bytes(Array(prefix))
                }
            }
        }
        return ArchiveMember(
            ordinal: ordinal, type: header.type, size: hardLink == nil ? header.size : 0,
            modified: header.modified,
            attributeFlag: flag, transportedAttributes: transported, kind: kind, sidecar: sidecar,
            symlinkTarget: header.symlinkTarget, hardLinkTarget: hardLink, unreadable: unreadable)
    }

    /// How many leading bytes the entry's kind needs (0: its name and size settle it).
    private func wantedBytes(name: [UInt8], path: [UInt8], size: Int64) -> Int {
        guard size > 0 else { return 0 }
        if Self.isMetadataCandidate(name: name, path: path) { return Self.metadataLimit + 1 }
        if Self.isSidecarName(name) { return AppleDouble.attributeHeaderLimit }
        let settled = name.withUnsafeBufferPointer { ContentSniffer.kind(name: $0, size: size) }
        return settled == nil ? ContentSniffer.prefixLength : 0
    }

    private static func isSidecarName(_ name: [UInt8]) -> Bool {
        name.count > 2 && name[0] == UInt8(ascii: ".") && name[1] == UInt8(ascii: "_")
    }

    private static func isMetadataCandidate(name: [UInt8], path: [UInt8]) -> Bool {
        (name.elementsEqual(ContainerSource.appDataInfoFile.utf8)
            || name.elementsEqual(ContainerSource.containerMetadataFile.utf8))
            && path.count { $0 == UInt8(ascii: "/") } < metadataDepth
    }

    /// The strongest flag an AppleDouble sidecar carries, from its first 64 KiB (where macOS keeps the table).
    private static func sidecar(_ prefix: UnsafeRawBufferPointer, size: Int64) -> SidecarReading {
        guard AppleDouble.hasHeader(prefix) else { return .notSidecar }
        do {
            let names = try AppleDouble.attributeNames(in: prefix, fileSize: Int(clamping: size))
            return .flag(BackupAttributes.reading(attributeNames: names.map { Array($0.utf8) }).flag)
        } catch {
            return .malformed("AppleDouble sidecar not understood: \(error)")
        }
    }

    /// A fatal failure ends the audit: nothing after it can be trusted. Another leaves only this entry unread.
    private static func throwIfFatal(_ error: ArchiveReadFailure, in path: [UInt8], of stream: ArchiveStream)
        throws(ScanError)
    {
        guard error.fatal else { return }
        throw .unreadableRoot(path: stream.path, reason: damaged("in the entry " + shown(path), error.message))
    }

    private static func damaged(_ place: String, _ message: String) -> String {
        "the archive is damaged or truncated (\(place)): \(message); nothing was audited"
    }

    private static func shown(_ path: [UInt8]) -> String { VisibleText.render(PathText.display(path), as: .message) }
}

/// Entry names as archives store them, made safe to use as paths below the archive root.
enum ArchiveName {
    enum Normalised {
        case path([UInt8])
        /// `./` or `/` alone: the archive root itself.
        case root
        case refused(String)
    }

    static func normalize(_ name: [UInt8]) -> Normalised {
        let slash = UInt8(ascii: "/")
        guard !name.isEmpty else { return .refused("it has an empty name") }
        guard name.first != slash else { return .refused("its name is absolute (starts with /)") }
        if isNormal(name) { return .path(name) }
        var components: [ArraySlice<UInt8>] = []
        for component in name.split(separator: slash) where !component.elementsEqual(".".utf8) {
            if component.elementsEqual("..".utf8) {
                return .refused("its name holds `..`, which would climb out of the folder it is extracted to")
            }
            guard component.count <= Int(UInt16.max) else {
                return .refused("a name component is longer than \(UInt16.max) bytes")
            }
            components.append(component)
        }
        guard !components.isEmpty else { return .root }
        return .path(Array(components.joined(separator: [slash])))
    }

    /// Whether a name is already normal (most are), in one pass without allocating: no empty, `.`, `..` or overlong component.
    private static func isNormal(_ name: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        var start = 0
        for index in 0...name.count where index == name.count || name[index] == slash {
            let length = index - start
            if length == 0 || length > Int(UInt16.max) { return false }
            if name[start] == dot && (length == 1 || (length == 2 && name[start + 1] == dot)) { return false }
            start = index + 1
        }
        return true
    }
}
