import Crypto
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hashes files of the inventory for one worker thread. Each folder on the way is opened in its parent with
/// `O_NOFOLLOW` (one swapped for a link is refused); the open chain is kept, so siblings cost one `openat` each.
final class ContentHasher {
    enum Outcome {
        case digest(ContentDigest)
        case failed(reason: ScanIssue.Reason, detail: String)
    }

    static let readLength = 1 << 20

    private let rootFD: Int32
    private let inventory: Inventory
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ContentHasher.readLength, alignment: 16)
    /// Open folders from the root down: `chain[k]` is a child of `chain[k - 1]` (of the root for k = 0).
    private var chain: [(index: Int32, fd: Int32)] = []
    /// Never through a link, access times kept where allowed; the size is compared with the walk's below.
    private var fileOptions = RegularFile.Options.insideContainer(maxBytes: nil)

    init(rootFD: Int32, inventory: Inventory) {
        (self.rootFD, self.inventory) = (rootFD, inventory)
    }

    deinit {
        for link in chain { close(link.fd) }
        buffer.deallocate()
    }

    /// SHA-256 of the entry's first `limit` bytes, once it is seen to be the regular file the walk saw.
    func digest(of index: Int32, limit: Int64) -> Outcome {
        let entry = inventory.entries[Int(index)]
        let folder = openFolder(entry.parent)
        guard folder.fd >= 0 else { return failure(folder.code, "cannot open its folder: ") }
        let file: RegularFile
        do {
            file = try openFile(index, in: folder.fd)
        } catch {
            guard let code = error.code else { return vanished("it changed after the walk (\(error))") }
            return failure(code, "cannot open it: ")
        }
        guard file.size == entry.apparentBytes else { return vanished("it changed after the walk") }
        return hash(file, length: min(limit, entry.apparentBytes))
    }

    private func hash(_ file: RegularFile, length wanted: Int64) -> Outcome {
        var hasher = Crypto.SHA256()
        var total: Int64 = 0
        while total < wanted {
            let length = Int(min(Int64(buffer.count), wanted - total))
            let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length])
            do {
                let count = try file.read(into: chunk, at: total)
                if count < chunk.count { return vanished("it shrank while being read") }
            } catch {
                return failure(error.code ?? EIO, "cannot read it: ")
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(chunk))
            total += Int64(chunk.count)
        }
        // SHA-256 is 32 bytes: the digest always fits.
        return .digest(ContentDigest(bytes: Array(hasher.finalize()))!)
    }

    private func failure(_ code: Int32, _ what: String) -> Outcome {
        .failed(reason: DirectoryLister.reason(for: code), detail: Self.failed + what + DirectoryLister.explain(code))
    }

    private func vanished(_ why: String) -> Outcome { .failed(reason: .vanished, detail: Self.failed + why) }

    private static let failed = "cannot compare its content: "

    private func openFile(_ index: Int32, in folder: Int32) throws(FileRefusal) -> RegularFile {
        try withName(index, otherwise: .failure(.system(ENOENT))) { name in
            Result { () throws(FileRefusal) in try RegularFile.open(name, in: folder, options: &fileOptions) }
        }.get()
    }

    /// The folder's descriptor (the root's for index 0), reusing the open chain's common part.
    private func openFolder(_ index: Int32) -> (fd: Int32, code: Int32) {
        var wanted: [Int32] = []
        var current = index
        while current > 0 {
            wanted.append(current)
            current = inventory.entries[Int(current)].parent
        }
        wanted.reverse()
        var common = 0
        while common < min(chain.count, wanted.count) && chain[common].index == wanted[common] { common += 1 }
        while chain.count > common { close(chain.removeLast().fd) }
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        for step in wanted[common...] {
            let parentFD = chain.last?.fd ?? rootFD
            let fd = withName(step, otherwise: -1) { openat(parentFD, $0, flags) }
            guard fd >= 0 else { return (-1, SystemError.current) }
            chain.append((step, fd))
        }
        return (chain.last?.fd ?? rootFD, 0)
    }

    /// The entry's name as a C string; a name that could climb opens nothing (`invalid`, errno ENOENT).
    private func withName<R>(_ index: Int32, otherwise invalid: R, _ body: (UnsafePointer<CChar>) -> R) -> R {
        let name = inventory.name(index)
        guard !name.isEmpty, !name.contains(0), !name.contains(UInt8(ascii: "/")),
            !name.elementsEqual([UInt8(ascii: ".")]), !name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
        else {
            SystemError.current = ENOENT
            return invalid
        }
        let bytes = Array(name) + [0]
        return bytes.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }
}
