#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CStocktakeSystem
import StocktakeModel

/// Lists one directory at a time for one worker: reads the names, pairs AppleDouble sidecars with their
/// targets, stats every entry without following links, reads backup flags and sniffs content where the
/// name does not settle it. Buffers are reused across directories to keep the hot path allocation-light.
final class DirectoryLister {
    private let rootFD: Int32
    private let rootPath: [UInt8]
    private let store: WorkerStore
    private let maxDepth: Int
    private let progress: ScanProgress?
    private var nameArena: [UInt8] = []
    private var nameSpans: [(start: Int, length: Int)] = []
    private var pathBuffer: [CChar] = []
    private var scratch: [CChar] = []
    private let prefix = UnsafeMutableRawBufferPointer.allocate(byteCount: ContentSniffer.prefixLength, alignment: 8)
    private let sidecar = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
    private var pendingEntries = 0
    private var pendingBytes: Int64 = 0
    /// Whether this thread has its own working directory (Linux): then the listed folder becomes it, and
    /// attribute lookups name entries by one component instead of walking the whole path each time.
    private let ownsWorkingDirectory: Bool
    private var insideListedFolder = false

    init(rootFD: Int32, rootPath: [UInt8], store: WorkerStore, maxDepth: Int, progress: ScanProgress?) {
        self.rootFD = rootFD
        self.rootPath = rootPath
        self.store = store
        self.maxDepth = maxDepth
        self.progress = progress
        ownsWorkingDirectory = stocktake_own_working_directory() == 0
    }

    deinit {
        prefix.deallocate()
        sidecar.deallocate()
    }

    /// Lists `job`'s directory and returns the subdirectories still to list.
    func list(_ job: DirectoryJob) -> [DirectoryJob] {
        guard let directory = open(job) else { return [] }
        defer { closedir(directory) }
        let fd = dirfd(directory)
        insideListedFolder = ownsWorkingDirectory && fchdir(fd) == 0
        readNames(directory)
        let sidecars = readSidecars(fd: fd, job: job)
        var subdirectories: [DirectoryJob] = []
        setPathPrefix(job.path)
        for span in nameSpans {
            nameArena.withUnsafeBufferPointer { arena in
                let name = UnsafeBufferPointer(rebasing: arena[span.start..<span.start + span.length])
                if let next = record(name: name, fd: fd, job: job, sidecars: sidecars) { subdirectories.append(next) }
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

    private func open(_ job: DirectoryJob) -> OpaquePointer? {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        let fd = job.path.isEmpty ? openat(rootFD, ".", flags) : withCString(job.path) { openat(rootFD, $0, flags) }
        guard fd >= 0 else {
            failDirectory(job, code: POSIX.errno)
            return nil
        }
        guard let directory = fdopendir(fd) else {
            let code = POSIX.errno
            close(fd)
            failDirectory(job, code: code)
            return nil
        }
        return directory
    }

    private func failDirectory(_ job: DirectoryJob, code: Int32) {
        store.unreadable.append(job.ref)
        store.issues.append(ScanIssue(path: job.path, reason: Self.reason(for: code), detail: "cannot list folder: " + POSIX.message(code)))
    }

    static func reason(for code: Int32) -> ScanIssue.Reason {
        switch code {
        case EACCES, EPERM: .permissionDenied
        case ENOENT, ENOTDIR, ELOOP: .vanished
        case ENAMETOOLONG: .nameTooLong
        default: .unreadable
        }
    }

    private func readNames(_ directory: OpaquePointer) {
        nameArena.removeAll(keepingCapacity: true)
        nameSpans.removeAll(keepingCapacity: true)
        while let entry = readdir(directory) {
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let length = strlen(raw.baseAddress!.assumingMemoryBound(to: CChar.self))
                let bytes = raw.prefix(length)
                if bytes.elementsEqual(".".utf8) || bytes.elementsEqual("..".utf8) { return }
                nameSpans.append((nameArena.count, length))
                nameArena.append(contentsOf: bytes)
            }
        }
    }

    // MARK: - AppleDouble sidecars

    /// Parses the `._name` sidecars in this directory: target name → the flag its attributes carry.
    private func readSidecars(fd: Int32, job: DirectoryJob) -> [ArraySlice<UInt8>: ExclusionFlag] {
        var flags: [ArraySlice<UInt8>: ExclusionFlag] = [:]
        for span in nameSpans where span.length > 2 && nameArena[span.start] == 0x2E && nameArena[span.start + 1] == 0x5F {
            let name = nameArena[span.start..<span.start + span.length]
            guard let attributes = readSidecar(fd: fd, name: name) else { continue }
            store.appleDoubleSidecars += 1
            var flag = ExclusionFlag.none
            for attribute in attributes {
                let found = Array(attribute.utf8).withUnsafeBufferPointer { BackupAttributes.flag(forAttributeName: $0) }
                if found.rawValue > 0, flag == .none || found == .xattr { flag = found }
            }
            let target = name.dropFirst(2)
            if job.zone.transport {
                // __MACOSX/<path>/._name describes <path>/name.
                if flag != .none {
                    let inner = job.path.split(separator: UInt8(ascii: "/"), maxSplits: 1).dropFirst().first.map(Array.init) ?? []
                    store.sequesteredFlags.append((inner.isEmpty ? Array(target) : inner + [UInt8(ascii: "/")] + target, .appleDouble))
                }
            } else {
                flags[target] = flag
            }
        }
        for target in flags.keys where !nameSpans.contains(where: { nameArena[$0.start..<$0.start + $0.length].elementsEqual(target) }) {
            store.issues.append(ScanIssue(path: joined(job.path, target), reason: .unpairedSidecar, detail: "AppleDouble sidecar ._\(PathText.display(target)) describes a file that is not in the export"))
        }
        return flags
    }

    private func readSidecar(fd: Int32, name: ArraySlice<UInt8>) -> [String]? {
        // Check the type first: a FIFO or device named `._x` must not even be opened.
        var info = stat()
        guard withCString(name, { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0, info.st_mode & S_IFMT == S_IFREG,
              let file = withCString(name, { POSIX.openRegularFile(directory: fd, name: $0) })
        else { return nil }
        defer { close(file) }
        let count = POSIX.readPrefix(fd: file, into: sidecar)
        let bytes = UnsafeRawBufferPointer(rebasing: sidecar[0..<count])
        guard AppleDouble.hasHeader(bytes) else { return nil }
        return try? AppleDouble.attributeNames(in: bytes)
    }

    // MARK: - One entry

    private func record(
        name: UnsafeBufferPointer<UInt8>, fd: Int32, job: DirectoryJob, sidecars: [ArraySlice<UInt8>: ExclusionFlag]
    ) -> DirectoryJob? {
        var info = stat()
        let statResult = withCString(name) { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) }
        guard statResult == 0 else {
            let code = POSIX.errno
            store.issues.append(ScanIssue(path: joined(job.path, name), reason: Self.reason(for: code), detail: "cannot read entry: " + POSIX.message(code)))
            return nil
        }
        let type = POSIX.entryType(mode: info.st_mode)
        let zone = job.zone.child(named: name, isDirectory: type == .directory)
        let apparent = Int64(info.st_size)
        let allocated = Int64(info.st_blocks) &* 512
        var flags: EntryFlags = []
        if zone.systemManaged { flags.insert(.systemManaged) }
        let isSidecar = type == .file && name.count > 2 && name[0] == 0x2E && name[1] == 0x5F && sidecarParsed(name, sidecars: sidecars, job: job)
        if zone.transport || isSidecar { flags.insert(.transportArtefact) }
        if type == .file && allocated < apparent { flags.insert(.sparse) }
        var ownFlag = sidecars.isEmpty ? .none : sidecars[ArraySlice(name)] ?? .none
        if ownFlag != .none { ownFlag = .appleDouble }
        // Backup flags matter only where iOS would back the entry up.
        let wantsAttributes = !zone.excludedBySystem && !flags.contains(.transportArtefact)
        var kind = ContentKind.unknown
        var native: ExclusionFlag?
        if type == .file {
            if isSidecar {
                kind = .appleDouble
            } else if let settled = ContentSniffer.kind(name: name, size: apparent) {
                kind = settled
            } else {
                (kind, native) = sniff(name: name, fd: fd, job: job, readAttributes: wantsAttributes, flags: &flags)
            }
        }
        if wantsAttributes, let found = native ?? readAttributes(name), found != .none { ownFlag = found }
        let stored = store.storeName(name)
        let record = WalkRecord(
            parent: job.ref, nameOffset: stored.offset, nameLength: stored.length, type: type, kind: kind, zone: zone,
            flags: flags, ownFlag: ownFlag, apparentBytes: apparent, allocatedBytes: allocated,
            modified: POSIX.modificationTime(info))
        guard let ref = store.append(record) else { return nil }
        pendingEntries += 1
        pendingBytes += allocated
        if pendingEntries >= 4096 { flushProgress() }
        if type != .directory && info.st_nlink > 1 {
            store.records[ref.index].flags.insert(.hardLinked)
            store.hardLinks.append((ref, UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino)))
        }
        if type == .symlink { recordSymlink(ref: ref, name: name, fd: fd, job: job) }
        guard type == .directory else { return nil }
        let path = joined(job.path, name)
        guard job.depth + 1 <= maxDepth else {
            store.unreadable.append(ref)
            store.issues.append(ScanIssue(path: path, reason: .tooDeep, detail: "not listed: deeper than \(maxDepth) levels"))
            return nil
        }
        return DirectoryJob(ref: ref, path: path, depth: job.depth + 1, zone: zone)
    }

    private func sidecarParsed(_ name: UnsafeBufferPointer<UInt8>, sidecars: [ArraySlice<UInt8>: ExclusionFlag], job: DirectoryJob) -> Bool {
        // Sidecars that parsed were counted; an unparseable `._x` file is just a file.
        if job.zone.transport { return true }
        return sidecars[ArraySlice(name.dropFirst(2))] != nil
    }

    /// The entry's own flag from its attributes, by path (no open needed); nil when they cannot be listed.
    private func readAttributes(_ name: UnsafeBufferPointer<UInt8>) -> ExclusionFlag? {
        if insideListedFolder {
            let names = withCString(name) { path in try? ExtendedAttributes.names(atPath: path) }
            return names.map(flag(from:))
        }
        let mark = pathBuffer.count
        pathBuffer.append(contentsOf: UnsafeRawBufferPointer(name).bindMemory(to: CChar.self))
        pathBuffer.append(0)
        defer { pathBuffer.removeSubrange(mark...) }
        let names = try? pathBuffer.withUnsafeBufferPointer { buffer throws(ExtendedAttributeError) in
            try ExtendedAttributes.names(atPath: buffer.baseAddress!)
        }
        return names.map(flag(from:))
    }

    private func flag(from attributes: [[UInt8]]) -> ExclusionFlag {
        var flag = ExclusionFlag.none
        var transported = false
        for attribute in attributes {
            attribute.withUnsafeBufferPointer { bytes in
                if BackupAttributes.isTransported(attributeName: bytes) { transported = true }
                let found = BackupAttributes.flag(forAttributeName: bytes)
                if found == .xattr || (found == .legacyXattr && flag == .none) { flag = found }
            }
        }
        if transported { store.entriesWithAttributes += 1 }
        return flag
    }

    /// Reads the first bytes of a file whose name did not settle its kind; while the file is open, its
    /// attributes come from the descriptor, which spares a second path lookup.
    private func sniff(
        name: UnsafeBufferPointer<UInt8>, fd: Int32, job: DirectoryJob, readAttributes: Bool, flags: inout EntryFlags
    ) -> (ContentKind, ExclusionFlag?) {
        guard let file = withCString(name, { POSIX.openRegularFile(directory: fd, name: $0) }) else {
            let code = POSIX.errno
            flags.insert(.unreadable)
            store.issues.append(ScanIssue(path: joined(job.path, name), reason: Self.reason(for: code), detail: "content not inspected: " + POSIX.message(code)))
            return (.unknown, nil)
        }
        defer { close(file) }
        let count = POSIX.readPrefix(fd: file, into: prefix)
        let kind = ContentSniffer.kind(prefix: UnsafeRawBufferPointer(rebasing: prefix[0..<count]), name: name)
        guard readAttributes else { return (kind, nil) }
        return (kind, (try? ExtendedAttributes.names(fileDescriptor: file)).map(flag(from:)))
    }

    private func recordSymlink(ref: RecordRef, name: UnsafeBufferPointer<UInt8>, fd: Int32, job: DirectoryJob) {
        var buffer = [CChar](repeating: 0, count: 4097)
        let length = withCString(name) { readlinkat(fd, $0, &buffer, buffer.count - 1) }
        guard length >= 0 else { return }
        let target = buffer[0..<length].map { UInt8(bitPattern: $0) }
        store.symlinkTargets.append((ref, target))
        if SymlinkCheck.escapes(target: target, directory: job.path, rootPath: rootPath) {
            store.records[ref.index].flags.insert(.escapesContainer)
        }
    }

    // MARK: - Paths

    private func setPathPrefix(_ relative: [UInt8]) {
        pathBuffer.removeAll(keepingCapacity: true)
        let slash = CChar(bitPattern: UInt8(ascii: "/"))
        pathBuffer.append(contentsOf: rootPath.map { CChar(bitPattern: $0) })
        pathBuffer.append(slash)
        if !relative.isEmpty {
            pathBuffer.append(contentsOf: relative.map { CChar(bitPattern: $0) })
            pathBuffer.append(slash)
        }
    }

    private func joined(_ directory: [UInt8], _ name: some Collection<UInt8>) -> [UInt8] {
        directory.isEmpty ? Array(name) : directory + [UInt8(ascii: "/")] + name
    }

    /// Calls `body` with a NUL-terminated copy of `bytes` in a buffer reused across calls.
    private func withCString<R>(_ bytes: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) -> R) -> R {
        scratch.removeAll(keepingCapacity: true)
        for byte in bytes { scratch.append(CChar(bitPattern: byte)) }
        scratch.append(0)
        return scratch.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
