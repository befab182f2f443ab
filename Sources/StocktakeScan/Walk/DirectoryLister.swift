import CStocktakeSystem
import StocktakeContent
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lists one directory at a time for one worker: names, sidecars paired, every entry stat'ed without following
/// links, backup flags, content sniffed where the name does not settle it. Buffers are reused across directories.
final class DirectoryLister {
    let rootFD: Int32
    let rootPath: [UInt8]
    let store: WorkerStore
    let maxDepth: Int
    let progress: ScanProgress?
    // Unchecked exclusivity on the per-entry state: one thread owns the lister, and the runtime checks on
    // these class properties cost a few percent of the walk's own CPU time.
    /// The names of the folder being listed, each followed by a NUL so that system calls take it in place.
    @exclusivity(unchecked) var nameArena: [UInt8] = []
    @exclusivity(unchecked) var nameSpans: [(start: Int, length: Int)] = []
    /// `d_type` of each name (`DT_UNKNOWN` where the file system does not say).
    @exclusivity(unchecked) var nameTypes: [UInt8] = []
    /// Root path + folder path + "/", for attribute lookups by full path (see `readAttributes`).
    @exclusivity(unchecked) var pathBuffer: [CChar] = []
    @exclusivity(unchecked) var scratch: [CChar] = []
    let prefix = UnsafeMutableRawBufferPointer.allocate(byteCount: ContentSniffer.prefixLength, alignment: 8)
    let sidecar = UnsafeMutableRawBufferPointer.allocate(byteCount: AppleDouble.attributeHeaderLimit, alignment: 8)
    let textScan: WalkTextScan?
    /// A text file's prefix, for `textScan`.
    let text: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var pendingEntries = 0
    @exclusivity(unchecked) private var pendingBytes: Int64 = 0
    /// Whether this thread has its own working directory (Linux): the listed folder becomes it, and attribute lookups
    /// name entries by one component instead of the whole path.
    private let ownsWorkingDirectory: Bool
    @exclusivity(unchecked) var insideListedFolder = false
    /// The listed folder is URLCache's bodies, which the content pass reads through `Cache.db`: not scanned as text.
    @exclusivity(unchecked) private var inCachedBodies = false
    /// Never through a link, access times kept; the entry was just seen to be a regular file, so no second stat.
    @exclusivity(unchecked) var fileOptions = RegularFile.Options(
        followsLinks: false, maxBytes: nil, keepsAccessTime: true, checksTypeBeforeOpening: false)

    init(
        rootFD: Int32, rootPath: [UInt8], store: WorkerStore, maxDepth: Int, progress: ScanProgress?,
        textScan: WalkTextScan? = nil
    ) {
        (self.rootFD, self.rootPath, self.store) = (rootFD, rootPath, store)
        (self.maxDepth, self.progress, self.textScan) = (maxDepth, progress, textScan)
        text = .allocate(byteCount: textScan?.prefixBytes ?? 0, alignment: 8)
        ownsWorkingDirectory = stocktake_own_working_directory() == 0
    }

    deinit {
        prefix.deallocate()
        sidecar.deallocate()
        text.deallocate()
    }

    /// Returns the subdirectories still to list.
    func list(_ job: DirectoryJob) -> [DirectoryJob] {
        guard let directory = open(job) else { return [] }
        defer { closedir(directory) }
        let fd = dirfd(directory)
        insideListedFolder = ownsWorkingDirectory && fchdir(fd) == 0
        readNames(directory)
        inCachedBodies = ContentInspector.holdsCachedBodies(job.path.split(separator: UInt8(ascii: "/")).last ?? [])
        let sidecars = readSidecars(fd: fd, job: job)
        var subdirectories: [DirectoryJob] = []
        setPathPrefix(job.path)
        for (span, listedType) in zip(nameSpans, nameTypes) {
            nameArena.withUnsafeBufferPointer { arena in
                let name = UnsafeBufferPointer(rebasing: arena[span.start..<span.start + span.length])
                let cName = UnsafeRawPointer(arena.baseAddress! + span.start).assumingMemoryBound(to: CChar.self)
                let next = record(name: name, cName: cName, listed: listedType, fd: fd, job: job, sidecars: sidecars)
                if let next { subdirectories.append(next) }
            }
        }
        flushProgress()
        return subdirectories
    }

    func flushProgress() {
        progress?.add(entries: pendingEntries, allocatedBytes: pendingBytes)
        pendingEntries = 0
        pendingBytes = 0
    }

    // MARK: - Opening and reading names

    /// Opens the folder without following a link at any step, and checks it is still the one its parent listed:
    /// a folder swapped mid-walk is reported, not followed.
    private func open(_ job: DirectoryJob) -> DirectoryStream? {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = job.path.isEmpty ? openat(rootFD, ".", flags) : withCString(job.path) { openat(rootFD, $0, flags) }
        if fd < 0 && SystemError.current == ENAMETOOLONG { fd = openStepByStep(job.path, flags: flags) }
        guard fd >= 0 else { return failDirectory(job, code: SystemError.current) }
        var info = stat()
        guard fstat(fd, &info) == 0, DirectoryJob.identity(info) == (job.device, job.inode) else {
            close(fd)
            return failDirectory(job, code: ENOTDIR)
        }
        guard let directory = fdopendir(fd) else {
            let code = SystemError.current
            close(fd)
            return failDirectory(job, code: code)
        }
        return directory
    }

    /// For paths longer than PATH_MAX: one component at a time, each opened relative to the last.
    private func openStepByStep(_ path: [UInt8], flags: Int32) -> Int32 {
        var current = dup(rootFD)
        for component in path.split(separator: UInt8(ascii: "/")) where current >= 0 {
            let next = withCString(component) { openat(current, $0, flags) }
            let code = SystemError.current
            close(current)
            current = next
            if next < 0 { SystemError.current = code }
        }
        return current
    }

    /// Records the folder as unreadable; nil, for `open` to return.
    private func failDirectory(_ job: DirectoryJob, code: Int32) -> DirectoryStream? {
        store.unreadable.append(job.ref)
        let detail = "cannot list folder: " + Self.explain(code)
        store.issues.append(ScanIssue(path: job.path, reason: Self.reason(for: code), detail: detail))
        return nil
    }

    static func reason(for code: Int32) -> ScanIssue.Reason {
        switch code {
        case EACCES, EPERM: .permissionDenied
        case ENOENT, ENOTDIR, ELOOP: .vanished
        case ENAMETOOLONG: .nameTooLong
        default: .unreadable
        }
    }

    static func explain(_ code: Int32) -> String {
        switch code {
        case ENOENT: "it vanished during the walk"
        case ENOTDIR, ELOOP: "it was replaced during the walk (a link or another entry now stands there)"
        default: SystemError.text(code)
        }
    }

    private func readNames(_ directory: DirectoryStream) {
        nameArena.removeAll(keepingCapacity: true)
        nameSpans.removeAll(keepingCapacity: true)
        nameTypes.removeAll(keepingCapacity: true)
        while let entry = readdir(directory) {
            let (name, length) = DirectoryEntryName.name(of: entry)
            if DirectoryEntryName.isDotOrDotDot(name, length: length) { continue }
            nameSpans.append((nameArena.count, length))
            nameTypes.append(entry.pointee.d_type)
            // With its NUL: system calls take the name in place.
            nameArena.append(contentsOf: UnsafeRawBufferPointer(start: name, count: length + 1))
        }
    }

    // MARK: - One entry

    private func record(
        name: UnsafeBufferPointer<UInt8>, cName: UnsafePointer<CChar>, listed listedType: UInt8, fd: Int32,
        job: DirectoryJob, sidecars: FolderSidecars
    ) -> DirectoryJob? {
        var info = stat()
        // A file whose content will be sniffed or scanned is opened first and stat'ed through its descriptor: one path
        // lookup instead of two. Anything else, or a failed open, takes the plain stat below (`sniff` says why).
        let mayBeFile = listedType == UInt8(DT_REG) || listedType == UInt8(DT_UNKNOWN)
        let kindFromName = mayBeFile ? ContentKind.named(name) : nil
        let opens =
            kindFromName == nil
            || (textScan != nil
                && ContentInspector.readsAsText(kindFromName, flags: [], inCachedBodies: inCachedBodies))
        let opened = listedType == UInt8(DT_REG) && opens ? try? openRegularFile(cName, in: fd) : nil
        if let opened {
            info = opened.status
        } else if fstatat(fd, cName, &info, AT_SYMLINK_NOFOLLOW) != 0 {
            let code = SystemError.current
            report(job, name, Self.reason(for: code), "cannot read entry: " + Self.explain(code))
            return nil
        }
        let type = POSIX.entryType(mode: info.st_mode)
        let zone = job.zone.child(named: name, isDirectory: type == .directory)
        let apparent = Int64(info.st_size)
        let allocated = Int64(info.st_blocks) &* 512
        var flags: EntryFlags = []
        if zone.systemManaged { flags.insert(.systemManaged) }
        let isSidecar = type == .file && sidecars.isSidecar(name)
        if zone.transport || isSidecar { flags.insert(.transportArtefact) }
        if type == .file
            && SparseCheck.isSparse(size: apparent, blocks: Int64(info.st_blocks), flags: POSIX.fileFlags(info))
        {
            flags.insert(.sparse)
        }
        var ownFlag = sidecars.flag(for: name)
        // Backup flags matter only where iOS would back the entry up.
        let wantsAttributes = !zone.excludedBySystem && !flags.contains(.transportArtefact)
        var kind = ContentKind.unknown
        var attributes: AttributeReading?
        if type == .file {
            if isSidecar {
                kind = .appleDouble
            } else if apparent == 0 {
                kind = .empty
            } else if let named = mayBeFile ? kindFromName : ContentKind.named(name) {
                kind = named
            } else {
                (kind, attributes) = sniff(
                    opened, name: name, cName: cName, fd: fd, job: job, readAttributes: wantsAttributes, flags: &flags)
            }
        }
        // An empty file opened first: its attributes still come through the open descriptor.
        if let opened, attributes == nil, wantsAttributes { attributes = attributeReading(of: opened) }
        let scannedClean =
            ContentInspector.readsAsText(kind, flags: flags, inCachedBodies: inCachedBodies)
            && opened.map { textScan?.readsClean($0, buffer: text) ?? false } ?? false
        var attributesUnreadable = false
        if wantsAttributes {
            switch attributes ?? readAttributes(name, cName: cName, type: type, folder: fd) {
            case .flag(let found): if found != .none { ownFlag = found }
            case .failed(let code):
                attributesUnreadable = true
                let detail = "extended attributes not read (backup state unknown): " + SystemError.text(code)
                report(job, name, Self.reason(for: code), detail)
            }
        }
        guard let stored = store.storeName(name) else {
            report(job, name, .unreadable, "not recorded: the audit's name storage is full")
            return nil
        }
        let record = EntryRecord(
            parent: job.ref, nameOffset: stored.offset, nameLength: stored.length, type: type, kind: kind, zone: zone,
            flags: flags, ownFlag: ownFlag, attributesUnreadable: attributesUnreadable, apparentBytes: apparent,
            allocatedBytes: allocated, modified: info.modificationSeconds)
        guard let ref = store.append(record) else {
            report(job, name, .unreadable, "not recorded: the audit's entry storage is full")
            return nil
        }
        if scannedClean { store.cleanText.append(ref) }
        pendingEntries += 1
        pendingBytes += allocated
        if pendingEntries >= 4096 { flushProgress() }
        if type != .directory && info.st_nlink > 1 {
            store.records[ref.index].flags.insert(.hardLinked)
            let (device, inode) = DirectoryJob.identity(info)
            store.hardLinks.append((ref, device, inode))
        }
        if type == .symlink { recordSymlink(ref: ref, name: name, fd: fd, job: job) }
        guard type == .directory else { return nil }
        guard job.depth + 1 <= maxDepth else {
            store.unreadable.append(ref)
            report(job, name, .tooDeep, "not listed: deeper than \(maxDepth) levels")
            return nil
        }
        return DirectoryJob(ref: ref, path: joined(job.path, name), depth: job.depth + 1, zone: zone, info: info)
    }

    func report(_ job: DirectoryJob, _ name: some Collection<UInt8>, _ reason: ScanIssue.Reason, _ detail: String) {
        store.issues.append(ScanIssue(path: joined(job.path, name), reason: reason, detail: detail))
    }

    // MARK: - Paths

    private func setPathPrefix(_ relative: [UInt8]) {
        pathBuffer.removeAll(keepingCapacity: true)
        for byte in relative.isEmpty ? rootPath + [0x2F] : rootPath + [0x2F] + relative + [0x2F] {
            pathBuffer.append(CChar(bitPattern: byte))
        }
    }

    /// Calls `body` with a NUL-terminated copy of `bytes` in a buffer reused across calls.
    func withCString<R>(_ bytes: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) -> R) -> R {
        scratch.removeAll(keepingCapacity: true)
        for byte in bytes { scratch.append(CChar(bitPattern: byte)) }
        scratch.append(0)
        return scratch.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
