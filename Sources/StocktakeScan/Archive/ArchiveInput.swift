import Crypto
import StocktakeContent
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A container read from an archive in place (zip, tar, tar.gz/tgz, tar.bz2, tar.xz): one pass lists every entry
/// and reads only the first bytes each needs; the container is found and inventoried by the folders' rules. Nothing
/// is extracted or written; memory holds the entry list and at most one entry's first MiB.
public struct ArchiveInput: Sendable {
    public let container: ContainerDescription
    public let inventory: Inventory
    /// For each inventory entry, the ordinal of the archive entry holding its data (-1: none).
    let dataOrdinals: [Int32]
    let path: String
    /// What the first pass kept for the content checks, by ordinal (`ContentCapture`); empty when not asked.
    let kept: [Int32: ContentInspector.Source]
    let scratch: ScratchFolder?

    /// Whether `path` names a regular file (through a link or not): then it is read as an archive.
    public static func isArchiveCandidate(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Whether the file at `path` starts as an archive Stocktake reads; one that cannot be opened counts (its reader says why).
    package static func startsAsArchive(_ path: String) -> Bool {
        var options = RegularFile.Options.named(maxBytes: nil)
        guard let file = try? RegularFile.open(path, options: &options) else { return true }
        return ArchiveSignature.matches((try? file.read(at: 0, count: 512)) ?? [])
    }

    /// Reads the archive, finds the container and builds its inventory; a damaged archive, or one holding no container,
    /// throws. `capturingContent`: keep what the content checks read, so that they need no second pass.
    public static func read(
        path: String, bundleIdentifier override: String? = nil, options: ScanOptions = ScanOptions(),
        capturingContent: Bool = false
    ) throws(ScanError) -> ArchiveInput {
        // The listing and its tree are gone before the records become the inventory: at a million members they
        // hold about as much memory as the inventory itself.
        let (container, recorder, ordinals, capture) = try listed(
            path: path, override: override, options: options, capturingContent: capturingContent)
        return ArchiveInput(
            container: container, inventory: recorder.inventory(.export(xattrsDeclared: options.xattrsPreserved)),
            dataOrdinals: ordinals, path: path, kept: capture?.kept ?? [:], scratch: capture?.scratch)
    }

    private static func listed(path: String, override: String?, options: ScanOptions, capturingContent: Bool)
        throws(ScanError) -> (ContainerDescription, TreeRecorder, [Int32], ContentCapture?)
    {
        let stream = try ArchiveStream(path: path)
        let listing = try ArchiveListing.read(stream, progress: options.progress, capturingContent: capturingContent)
        let tree = listing.tree
        let layout = try ArchiveLayout.find(tree: tree, listing: listing, archivePath: path)
        let rootPath = ResolvedPath.of(path) + "!/" + PathText.display(tree.path(layout.root))
        let (recorder, ordinals) = ArchiveInventory(
            tree: tree, listing: listing, root: layout.root, options: options, rootName: Array(rootPath.utf8)
        ).build()

        let listingOfRoot: IdentityClues.Listing = { relative in
            // A real folder at every step: an archive's link is a link, never followed.
            guard let node = tree.node(at: Array(relative.utf8), from: layout.root, foldersOnly: true) else {
                return nil
            }
            return tree.nodes[Int(node)].children.map { child in
                DirectoryListing.Entry(
                    name: PathText.display(tree.name(child)), kind: listing.kind(of: child))
            }
        }
        let container = layout.found.describe(
            inputPath: path, rootPath: rootPath, override: override,
            listed: IdentityClues.collect(listing: listingOfRoot),
            exportedAt: exportTime(layout: layout, tree: tree, listing: listing, path: path),
            archive: ArchiveDescription(
                path: path, format: listing.format, compression: listing.compression,
                folder: PathText.display(tree.path(layout.input))))
        return (container, recorder, ordinals, listing.capture)
    }

    /// `XCDownloadDate`, else the time the headers give `AppDataInfo.plist`, else the input folder's, else the archive's.
    private static func exportTime(layout: ArchiveLayout, tree: ArchiveTree, listing: ArchiveListing, path: String)
        -> ExportTime?
    {
        if let downloaded = DownloadDate.exportTime(layout.found.appDataInfo?["XCDownloadDate"]) { return downloaded }
        if layout.found.layout == .xcappdata,
            let info = tree.node(at: Array(ContainerSource.appDataInfoFile.utf8), from: layout.input),
            let member = listing.member(of: info)
        {
            return ExportTime(seconds: member.modified, source: .metadataFile)
        }
        if let member = listing.member(of: layout.input) {
            return ExportTime(seconds: member.modified, source: .inputFolder)
        }
        var info = stat()
        return stat(path, &info) == 0 ? ExportTime(seconds: info.modificationSeconds, source: .inputFolder) : nil
    }

    /// Files of equal content, by a second pass that hashes each same-size candidate as it streams.
    public func findDuplicates(minimumBytes: Int64) throws(ScanError) -> DuplicateSearch {
        let candidates = DuplicateFinder.sameSizeCandidates(inventory, minimumBytes: max(1, minimumBytes))
        guard !candidates.isEmpty else { return DuplicateSearch(sets: [], issues: []) }
        let wanted = Dictionary(grouping: candidates.filter { dataOrdinals[Int($0)] >= 0 }) { dataOrdinals[Int($0)] }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        var groups: [SizeAndDigest: [Int32]] = [:]
        var issues: [ScanIssue] = []
        try reread(wanted.keys, for: "duplicates") { ordinal, stream throws(ScanError) in
            guard let members = wanted[ordinal], let first = members.first else { return }
            let size = inventory.entries[Int(first)].apparentBytes
            var hasher = Crypto.SHA256()
            let skipped: String?
            do throws(ArchiveReadFailure) {
                let read = try stream.stream(through: buffer, limit: size) { hasher.update(bufferPointer: $0) }
                skipped = read == size ? nil : "the archive holds \(read) of its \(size) declared bytes"
            } catch {
                try error.throwIfFatal(archive: path)
                skipped = error.message
            }
            if let skipped {
                issues += members.map {
                    ScanIssue(
                        path: inventory.path($0), reason: .unreadable, detail: "duplicate check skipped: " + skipped)
                }
                return
            }
            guard let digest = ContentDigest(bytes: Array(hasher.finalize())) else { return }
            groups[SizeAndDigest(size: size, digest: digest), default: []].append(contentsOf: members)
        }
        let sets = groups.compactMap { key, members in
            members.count > 1 ? IdenticalFiles(members: members, size: key.size, digest: key.digest) : nil
        }
        return DuplicateSearch(sets: DuplicateFinder.inPathOrder(sets, inventory), issues: issues)
    }

    /// A second read of the archive for `purpose` (named if it breaks): `body` runs at each of `ordinals`, the stream
    /// at its data; the read stops after the last (what follows is never decompressed).
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
