import StocktakeContent
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The outcome of reading an entry's extended attributes.
enum AttributeReading {
    case flag(ExclusionFlag)
    /// They could not be listed: the entry's backup state is unknown, never "included".
    case failed(Int32)
}

extension DirectoryLister {
    /// The entry's own flag from its attributes: by name, one component, when the thread sits in the folder
    /// (Linux); else through a descriptor opened relative to the folder's (Darwin, which has no per-thread working
    /// directory); else by full path, as before that route (an entry that cannot be opened: mode 000, say, or a
    /// socket, FIFO or device, which the walk never opens).
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

    /// Darwin: the names through the entry opened relative to `folder`, never through a link (see
    /// `ExtendedAttributes.names(of:inFolder:)`), so neither PATH_MAX nor a link above the entry comes into it.
    /// nil where the entry is a FIFO, socket or device (never opened) or cannot be opened: the caller asks by path.
    private func namesThroughDescriptor(
        _ cName: UnsafePointer<CChar>, type: EntryType, folder: Int32
    ) -> Result<[[UInt8]], ExtendedAttributeError>? {
        guard Self.readsAttributesThroughDescriptors, type == .file || type == .directory || type == .symlink else {
            return nil
        }
        switch Result(catching: { () throws(ExtendedAttributeError) in
            try ExtendedAttributes.names(of: cName, inFolder: folder)
        }) {
        case .success(let names?): return .success(names)
        case .success(nil): return nil
        case .failure(let error): return .failure(error)
        }
    }

    /// Darwin: yes (no per-thread working directory to sit in). Linux: no; the walk reaches `readAttributes`'s
    /// second route only when `unshare` was refused, and keeps the path route it always had there.
    private static var readsAttributesThroughDescriptors: Bool {
        #if canImport(Darwin)
            true
        #else
            false
        #endif
    }

    func reading(_ names: Result<[[UInt8]], ExtendedAttributeError>) -> AttributeReading {
        switch names {
        case .success(let attributes): .flag(flag(from: attributes))
        case .failure(let error): .failed(error.code)
        }
    }

    /// The strongest flag among attribute names; counts the entry as evidence when any name travelled
    /// (`BackupAttributes.reading`: names macOS adds by itself do not).
    func flag(from attributes: [[UInt8]]) -> ExclusionFlag {
        guard !attributes.isEmpty else { return .none }
        let (flag, transported) = BackupAttributes.reading(attributeNames: attributes)
        if transported { store.entriesWithAttributes += 1 }
        return flag
    }

    /// Reads the first bytes of a file whose name did not settle its kind; while the file is open, its
    /// attributes come from the descriptor, which spares a second path lookup.
    func sniff(
        name: UnsafeBufferPointer<UInt8>, fd: Int32, job: DirectoryJob, readAttributes: Bool, flags: inout EntryFlags
    ) -> (ContentKind, AttributeReading?) {
        let file: RegularFile
        do {
            file = try openRegularFile(name, in: fd)
        } catch {
            flags.insert(.unreadable)
            store.issues.append(issue(joined(job.path, name), "content not inspected: ", error))
            return (.unknown, nil)
        }
        return sniff(file, name: name, readAttributes: readAttributes)
    }

    /// The kind from the first bytes of an open file, and its attributes through the descriptor.
    func sniff(_ file: RegularFile, name: UnsafeBufferPointer<UInt8>, readAttributes: Bool) -> (
        ContentKind, AttributeReading?
    ) {
        // A read error (EIO) sniffs nothing: the name alone then decides the kind.
        let count = (try? file.readPrefix(into: prefix)) ?? 0
        let kind = ContentSniffer.kind(prefix: UnsafeRawBufferPointer(rebasing: prefix[0..<count]), name: name)
        guard readAttributes else { return (kind, nil) }
        return (kind, attributeReading(of: file))
    }

    func attributeReading(of file: RegularFile) -> AttributeReading {
        reading(
            file.withDescriptor { fd in
                Result { () throws(ExtendedAttributeError) in try ExtendedAttributes.names(fileDescriptor: fd) }
            })
    }

    /// Opens a regular file of the listed folder (see `fileOptions`).
    func openRegularFile(_ name: some Collection<UInt8>, in fd: Int32) throws(FileRefusal) -> RegularFile {
        try withCString(name) { path in Result { () throws(FileRefusal) in try openRegularFile(path, in: fd) } }.get()
    }

    /// The same for a name that is already NUL-terminated.
    func openRegularFile(_ name: UnsafePointer<CChar>, in fd: Int32) throws(FileRefusal) -> RegularFile {
        try RegularFile.open(name, in: fd, options: &fileOptions)
    }

    /// The issue for a file that could not be opened: a system error, or an entry that is no longer the
    /// regular file the listing saw.
    func issue(_ path: [UInt8], _ what: String, _ refusal: FileRefusal) -> ScanIssue {
        guard let code = refusal.code else {
            return ScanIssue(
                path: path, reason: .vanished, detail: what + "it was replaced during the walk (\(refusal))")
        }
        return ScanIssue(path: path, reason: Self.reason(for: code), detail: what + Self.explain(code))
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
