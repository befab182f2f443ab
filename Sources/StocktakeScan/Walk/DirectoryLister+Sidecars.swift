import StocktakeContent
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// Reads every `._name` sidecar of the folder being listed. `._.` describes the folder itself; in
    /// `__MACOSX/<path>/` a sidecar describes `<path>/name`, resolved after the walk.
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
                    store.issues.append(
                        ScanIssue(
                            path: joined(job.path, target), reason: .unpairedSidecar,
                            detail:
                                "stale AppleDouble sidecar ._\(VisibleText.render(PathText.display(target), as: .message)): its file is not in the export (deleted or renamed after the copy's metadata was written), so any backup flag it carries applies to nothing; harmless to the audit, and a fresh export drops it"
                        ))
                }
            }
        }
        return result
    }

    /// nil: not a sidecar (not a regular file, or no AppleDouble header). `.some(nil)`: a sidecar that did
    /// not parse (reported). `.some(flag)`: a parsed sidecar and the strongest flag among its attributes.
    private func readSidecar(fd: Int32, name: ArraySlice<UInt8>, job: DirectoryJob) -> ExclusionFlag?? {
        // Check the type first: a FIFO or device named `._x` must not even be opened.
        var info = stat()
        guard withCString(name, { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0, info.st_mode & S_IFMT == S_IFREG,
            let file = try? openRegularFile(name, in: fd),
            let count = try? file.readPrefix(into: sidecar)
        else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: sidecar[0..<count])
        guard AppleDouble.hasHeader(bytes) else { return nil }
        let attributes: [String]
        do {
            attributes = try AppleDouble.attributeNames(in: bytes, fileSize: Int(info.st_size))
        } catch {
            store.issues.append(
                ScanIssue(
                    path: joined(job.path, name), reason: .malformedMetadata,
                    detail: "AppleDouble sidecar not understood: \(error)"))
            return .some(nil)
        }
        store.appleDoubleSidecars += 1
        var flag = ExclusionFlag.none
        for attribute in attributes {
            let found = Array(attribute.utf8).withUnsafeBufferPointer { BackupAttributes.flag(forAttributeName: $0) }
            flag = flag.strongest(with: found)
        }
        return .some(flag)
    }
}
