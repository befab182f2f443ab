import StocktakeContent
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum AttributeReading {
    case flag(ExclusionFlag)
    /// They could not be listed: the entry's backup state is unknown, never "included".
    case failed(Int32)
}

extension DirectoryLister {
    /// The entry's own flag from its attributes: by name when the thread sits in the folder (Linux); else through a
    /// descriptor opened in the folder (Darwin); else by full path (mode 000, or a FIFO or device, never opened).
    func readAttributes(_ name: UnsafeBufferPointer<UInt8>, cName: UnsafePointer<CChar>, type: EntryType, folder: Int32)
        -> AttributeReading
    {
        let names: Result<[[UInt8]], ExtendedAttributeError>
        if insideListedFolder {
            names = Result { () throws(ExtendedAttributeError) in try ExtendedAttributes.names(atPath: cName) }
        } else if let opened = namesThroughDescriptor(cName, type: type, folder: folder) {
            names = opened
        } else {
            let mark = pathBuffer.count
            pathBuffer.append(contentsOf: UnsafeRawBufferPointer(name).bindMemory(to: CChar.self))
            pathBuffer.append(0)
            names = pathBuffer.withUnsafeBufferPointer { buffer in
                Result { () throws(ExtendedAttributeError) in try ExtendedAttributes.names(atPath: buffer.baseAddress!)
                }
            }
            pathBuffer.removeSubrange(mark...)
        }
        if case .failure(let error) = names, ExtendedAttributes.meansNoAttributes(error.code, type: type) {
            return .flag(.none)
        }
        return reading(names)
    }

    /// Darwin (no per-thread working directory to sit in): the names through the entry opened relative to `folder`;
    /// nil where the entry is a FIFO, socket or device (never opened) or cannot be opened: the caller asks by path.
    /// Linux comes here only when `unshare` was refused, and keeps the path route it always had there.
    private func namesThroughDescriptor(
        _ cName: UnsafePointer<CChar>, type: EntryType, folder: Int32
    ) -> Result<[[UInt8]], ExtendedAttributeError>? {
        #if canImport(Darwin)
            guard type == .file || type == .directory || type == .symlink else { return nil }
            do {
                return try ExtendedAttributes.names(of: cName, inFolder: folder).map { .success($0) }
            } catch {
                return .failure(error)
            }
        #else
            return nil
        #endif
    }

    /// The strongest flag among the names; the entry counts as evidence when any name travelled.
    func reading(_ names: Result<[[UInt8]], ExtendedAttributeError>) -> AttributeReading {
        switch names {
        case .success(let attributes):
            guard !attributes.isEmpty else { return .flag(.none) }
            let (flag, transported) = BackupAttributes.reading(attributeNames: attributes)
            if transported { store.entriesWithAttributes += 1 }
            return .flag(flag)
        case .failure(let error): return .failed(error.code)
        }
    }

    /// Reads the first bytes of a file whose name did not settle its kind; its attributes come through the descriptor.
    func sniff(
        _ opened: RegularFile?, name: UnsafeBufferPointer<UInt8>, cName: UnsafePointer<CChar>, fd: Int32,
        job: DirectoryJob, readAttributes: Bool, flags: inout EntryFlags
    ) -> (ContentKind, AttributeReading?) {
        let file: RegularFile
        do {
            if let opened { file = opened } else { file = try openRegularFile(cName, in: fd) }
        } catch {
            // A system error, or an entry that is no longer the regular file the listing saw.
            flags.insert(.unreadable)
            let (reason, why) =
                error.code.map { (Self.reason(for: $0), Self.explain($0)) }
                ?? (.vanished, "it was replaced during the walk (\(error))")
            report(job, name, reason, "content not inspected: " + why)
            return (.unknown, nil)
        }
        // A read error (EIO) sniffs nothing: the name alone then decides the kind.
        let count = (try? file.readPrefix(into: prefix)) ?? 0
        let kind = ContentSniffer.kind(prefix: UnsafeRawBufferPointer(rebasing: prefix[0..<count]), name: name)
        return (kind, readAttributes ? attributeReading(of: file) : nil)
    }

    func attributeReading(of file: RegularFile) -> AttributeReading {
        let list = ExtendedAttributes.names(fileDescriptor:)
        return reading(Result { () throws(ExtendedAttributeError) in try file.withDescriptor(list) })
    }

    func openRegularFile(_ name: UnsafePointer<CChar>, in fd: Int32) throws(FileRefusal) -> RegularFile {
        try RegularFile.open(name, in: fd, options: &fileOptions)
    }

    func recordSymlink(ref: RecordRef, name: UnsafeBufferPointer<UInt8>, fd: Int32, job: DirectoryJob) {
        var buffer = [CChar](repeating: 0, count: 4097)
        let length = withCString(name) { readlinkat(fd, $0, &buffer, buffer.count - 1) }
        guard length >= 0 else { return }
        let target = buffer[0..<length].map { UInt8(bitPattern: $0) }
        store.symlinkTargets.append((ref, target))
        if SymlinkCheck.escapes(target: target, directory: job.path, rootPath: rootPath) {
            store.records[ref.index].flags.insert(.escapesContainer)
        }
    }
}

// MARK: - AppleDouble sidecars

/// What the AppleDouble sidecars of one folder say.
struct FolderSidecars {
    /// Target name → the flag its sidecar carries (`.none` when it carries none).
    var flags: [ArraySlice<UInt8>: ExclusionFlag] = [:]
    /// Names of the files that are sidecars (AppleDouble header), parsed or not: transport, not app data.
    var sidecarNames: Set<ArraySlice<UInt8>> = []

    func isSidecar(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        !sidecarNames.isEmpty && AppleDouble.targetName(ofSidecar: name) != nil
            && sidecarNames.contains(ArraySlice(name))
    }

    func flag(for name: UnsafeBufferPointer<UInt8>) -> ExclusionFlag {
        guard !flags.isEmpty, let flag = flags[ArraySlice(name)], flag != .none else { return .none }
        return .appleDouble
    }
}

extension DirectoryLister {
    /// Reads the folder's `._name` sidecars. `._.` describes the folder; in `__MACOSX/<path>/` a sidecar describes
    /// `<path>/name`, resolved after the walk.
    func readSidecars(fd: Int32, job: DirectoryJob) -> FolderSidecars {
        var result = FolderSidecars()
        var names: Set<ArraySlice<UInt8>>?
        for span in nameSpans
        where span.length > 2 && nameArena[span.start] == 0x2E && nameArena[span.start + 1] == 0x5F {
            let name = nameArena[span.start..<span.start + span.length]
            guard let outcome = readSidecar(fd: fd, name: name, job: job) else { continue }
            result.sidecarNames.insert(name)
            guard let flag = outcome else { continue }
            let target = name.dropFirst(2)
            let isFolderItself = target.elementsEqual(".".utf8)
            if job.zone.transport {
                guard flag != .none else { continue }
                let inner = Array(job.path.split(separator: UInt8(ascii: "/"), maxSplits: 1).dropFirst().first ?? [])
                store.sequesteredFlags.append((isFolderItself ? inner : joined(inner, target), .appleDouble))
            } else if isFolderItself {
                if flag != .none { store.folderFlags.append((job.ref, .appleDouble)) }
            } else {
                result.flags[target] = flag
                if names == nil { names = Set(nameSpans.map { nameArena[$0.start..<$0.start + $0.length] }) }
                if !names!.contains(target) {
                    report(
                        job, target, .unpairedSidecar,
                        "stale AppleDouble sidecar ._\(VisibleText.render(PathText.display(target), as: .message)): its file is not in the export (deleted or renamed after the copy's metadata was written), so any backup flag it carries applies to nothing; harmless to the audit, and a fresh export drops it"
                    )
                }
            }
        }
        return result
    }

    /// nil: not a sidecar (not a regular file, or no AppleDouble header). `.some(nil)`: a sidecar that did
    /// not parse (reported). `.some(flag)`: a parsed sidecar and the strongest flag among its attributes.
    private func readSidecar(fd: Int32, name: ArraySlice<UInt8>, job: DirectoryJob) -> ExclusionFlag?? {
        var info = stat()
        let file: RegularFile? = withCString(name) { cName in
            // Check the type first: a FIFO or device named `._x` must not even be opened.
            let isFile = fstatat(fd, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFREG
            return isFile ? try? openRegularFile(cName, in: fd) : nil
        }
        guard let file else { return nil }
        do {
            guard let flag = try AppleDouble.flag(of: file, buffer: sidecar) else { return nil }
            store.appleDoubleSidecars += 1
            return .some(flag)
        } catch {
            report(job, name, .malformedMetadata, "AppleDouble sidecar not understood: \(error)")
            return .some(nil)
        }
    }
}

extension AppleDouble {
    /// The strongest backup flag among a sidecar's attribute names; nil when `file` has no AppleDouble header.
    static func flag(of file: RegularFile, buffer: UnsafeMutableRawBufferPointer) throws(AppleDoubleError)
        -> ExclusionFlag?
    {
        guard let count = try? file.readPrefix(into: buffer) else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        guard hasHeader(bytes) else { return nil }
        let names = try attributeNames(in: bytes, fileSize: Int(clamping: file.size))
        return BackupAttributes.reading(attributeNames: names.map { Array($0.utf8) }).flag
    }
}
