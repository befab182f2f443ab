import Crypto
import StocktakeContent
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A container read from an archive in place (zip, tar, tar.gz/tgz, tar.bz2, tar.xz): one pass lists every
/// entry and reads only the first bytes each needs, the container inside is found as for folders, and the
/// inventory is built by the walk's rules. Nothing is extracted or written; memory holds the entry list and at
/// most one entry's first MiB. Duplicate detection, when asked for, is a second pass that hashes as it streams.
public struct ArchiveInput: Sendable {
    public let container: ContainerDescription
    public let inventory: Inventory
    /// For each inventory entry, the ordinal of the archive entry holding its data (-1: none).
    let dataOrdinals: [Int32]
    let path: String
    /// What the first pass kept for the content checks, by ordinal (`ContentCapture`); empty when not asked.
    let kept: [Int32: ContentInspector.Source]
    /// Holds the kept stores' files while the input lives.
    let scratch: ScratchFolder?

    /// Whether `path` names a regular file (through a link or not): then it is read as an archive.
    public static func isArchiveCandidate(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Whether the regular file at `path` starts as an archive Stocktake reads (zip, tar, gzip, bzip2, xz). A file
    /// that cannot be opened counts as one: whoever reads it then says why.
    package static func startsAsArchive(_ path: String) -> Bool {
        var options = RegularFile.Options.named(maxBytes: nil)
        guard let file = try? RegularFile.open(path, options: &options) else { return true }
        return ArchiveSignature.matches((try? file.read(at: 0, count: 512)) ?? [])
    }

    /// Reads the archive, finds the container and builds its inventory. A damaged, truncated or unsupported
    /// archive, or one holding no container, throws with a message naming what was found.
    /// `capturingContent`: keep what the content checks read as the pass goes (`sensitiveData()` then needs no
    /// second pass, as long as the capture's bounds held).
    public static func read(
        path: String, bundleIdentifier override: String? = nil, options: ScanOptions = ScanOptions(),
        capturingContent: Bool = false
    ) throws(ScanError) -> ArchiveInput {
        let stream = try ArchiveStream(path: path)
        let listing = try ArchiveListing.read(stream, progress: options.progress, capturingContent: capturingContent)
        let tree = listing.tree
        let layout = try ArchiveLayout.find(tree: tree, listing: listing, archivePath: path)
        let folder = PathText.display(tree.path(layout.input))
        let rootInside = PathText.display(tree.path(layout.root))
        let rootPath = ResolvedPath.of(path) + "!/" + rootInside
        let (inventory, ordinals) = ArchiveInventory(
            tree: tree, listing: listing, root: layout.root, options: options, rootName: Array(rootPath.utf8)
        ).build()

        let prefix = layout.layout == .xcappdata ? ContainerSource.appDataFolder + "/" : ""
        let listingOfRoot: IdentityClues.Listing = { relative in
            guard let node = tree.node(at: Array(relative.utf8), from: layout.root), tree.nodes[Int(node)].isDirectory,
                isRealFolder(tree, from: layout.root, relative)
            else { return nil }
            return tree.nodes[Int(node)].children.map { child in
                DirectoryListing.Entry(
                    name: PathText.display(tree.nodes[Int(child)].name),
                    kind: tree.kind(of: child, members: listing.members))
            }
        }
        let clues =
            ContainerSource.authoritativeClues(
                override: override, appDataInfo: layout.appDataInfo, containerMetadata: layout.containerMetadata,
                metadataPrefix: prefix)
            + IdentityClues.collect(listing: listingOfRoot)
        let identity = BundleIdentity.decide(clues)
        let container = ContainerDescription(
            inputPath: path, rootPath: rootPath, layout: layout.layout, bundleIdentifier: identity.identifier,
            bundleIdentifierSource: identity.source, identityClues: clues, identityCandidates: identity.candidates,
            metadata: layout.metadata, exportedAt: exportTime(layout: layout, tree: tree, listing: listing, path: path),
            archive: ArchiveDescription(
                path: path, format: listing.format, compression: listing.compression, folder: folder),
            allocatedBytesEstimated: true)
        return ArchiveInput(
            container: container, inventory: inventory, dataOrdinals: ordinals, path: path,
            kept: listing.capture?.kept ?? [:],
            scratch: listing.capture?.scratch)
    }

    /// A real folder at every step (an archive's link is a link, never followed).
    private static func isRealFolder(_ tree: ArchiveTree, from root: Int32, _ relative: String) -> Bool {
        var current = root
        for component in relative.split(separator: "/") {
            guard let next = tree.child(current, Array(component.utf8)), tree.nodes[Int(next)].isDirectory else {
                return false
            }
            current = next
        }
        return true
    }

    /// `XCDownloadDate`, else the time the headers give `AppDataInfo.plist`, else the input folder's, else the archive's.
    private static func exportTime(layout: ArchiveLayout, tree: ArchiveTree, listing: ArchiveListing, path: String)
        -> ExportTime?
    {
        if let downloaded = DownloadDate.exportTime(layout.appDataInfo?["XCDownloadDate"]) { return downloaded }
        func modified(_ node: Int32?) -> Int64? {
            guard let node, tree.nodes[Int(node)].member >= 0 else { return nil }
            return listing.members[Int(tree.nodes[Int(node)].member)].modified
        }
        if layout.layout == .xcappdata,
            let seconds = modified(tree.node(at: Array(ContainerSource.appDataInfoFile.utf8), from: layout.input))
        {
            return ExportTime(seconds: seconds, source: .metadataFile)
        }
        if let seconds = modified(layout.input) { return ExportTime(seconds: seconds, source: .inputFolder) }
        var info = stat()
        return stat(path, &info) == 0 ? ExportTime(seconds: POSIX.modificationTime(info), source: .inputFolder) : nil
    }

    /// Files of equal content, by a second pass over the archive that hashes each candidate as it streams
    /// (candidates: counted regular files sharing their size with another, as for folders).
    public func findDuplicates(minimumBytes: Int64) throws(ScanError) -> DuplicateSearch {
        let candidates = DuplicateFinder.sameSizeCandidates(inventory, minimumBytes: max(1, minimumBytes))
        guard !candidates.isEmpty else { return DuplicateSearch(sets: [], issues: []) }
        var wanted: [Int32: [Int32]] = [:]
        for index in candidates where dataOrdinals[Int(index)] >= 0 {
            wanted[dataOrdinals[Int(index)], default: []].append(index)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        struct Key: Hashable {
            let size: Int64
            let digest: ContentDigest
        }
        var groups: [Key: [Int32]] = [:]
        var issues: [ScanIssue] = []
        try reread(wanted.keys, for: "duplicates") { ordinal, stream throws(ScanError) in
            guard let members = wanted[ordinal], let first = members.first else { return }
            let size = inventory.entries[Int(first)].apparentBytes
            var hasher = Crypto.SHA256()
            do throws(EntryReadFailure) {
                let read = try stream.stream(through: buffer, limit: size) { hasher.update(bufferPointer: $0) }
                guard read == size else {
                    for member in members {
                        issues.append(
                            ScanIssue(
                                path: inventory.path(member), reason: .unreadable,
                                detail:
                                    "duplicate check skipped: the archive holds \(read) of its \(size) declared bytes"))
                    }
                    return
                }
            } catch {
                guard !error.fatal else {
                    throw .unreadableRoot(path: path, reason: "the archive is damaged or truncated: \(error.message)")
                }
                for member in members {
                    issues.append(
                        ScanIssue(
                            path: inventory.path(member), reason: .unreadable,
                            detail: "duplicate check skipped: \(error.message)"))
                }
                return
            }
            guard let digest = ContentDigest(bytes: Array(hasher.finalize())) else { return }
            groups[Key(size: size, digest: digest), default: []].append(contentsOf: members)
        }
        let sets = groups.compactMap { key, members in
            members.count > 1 ? IdenticalFiles(members: members, size: key.size, digest: key.digest) : nil
        }
        return DuplicateSearch(sets: DuplicateFinder.inPathOrder(sets, inventory), issues: issues)
    }

    /// A second read of the archive, for `purpose` (named if it breaks): `body` runs at each entry whose ordinal is
    /// in `ordinals`, the stream at its data; the read ends after the last of them (what follows is never
    /// decompressed).
    func reread(
        _ ordinals: some Collection<Int32>, for purpose: String,
        _ body: (Int32, ArchiveStream) throws(ScanError) -> Void
    ) throws(ScanError) {
        let wanted = Set(ordinals)
        let last = wanted.max() ?? -1
        let stream = try ArchiveStream(path: path)
        var ordinal: Int32 = 0
        while ordinal <= last {
            let header: ArchiveHeader?
            do {
                header = try stream.next()
            } catch {
                throw .unreadableRoot(
                    path: path,
                    reason: "the archive is damaged or truncated (on the second read, for \(purpose)): \(error.message)"
                )
            }
            guard header != nil else { break }
            defer { ordinal += 1 }
            if wanted.contains(ordinal) { try body(ordinal, stream) }
        }
    }
}
