#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import StocktakeModel

/// Hashes files of the inventory for one worker thread. Every folder on the way is opened relative to its
/// parent with `O_NOFOLLOW`, so a folder swapped for a symlink after the walk is refused, never followed;
/// the open chain is kept between files, so siblings cost one `openat` each.
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
    /// Linux: open without updating access times; dropped after the first refusal (files of other owners).
    private var noAccessTime = POSIX.noAccessTimeFlag

    init(rootFD: Int32, inventory: Inventory) {
        self.rootFD = rootFD
        self.inventory = inventory
    }

    deinit {
        for link in chain { close(link.fd) }
        buffer.deallocate()
    }

    /// SHA-256 of the first `limit` bytes of entry `index` (all of it when shorter), after checking it is
    /// still a regular file of the size the walk saw.
    func digest(of index: Int32, limit: Int64) -> Outcome {
        let entry = inventory.entries[Int(index)]
        let folder = openFolder(entry.parent)
        guard folder.fd >= 0 else { return failure(folder.code, "cannot open its folder: ") }
        let fd = openFile(index, in: folder.fd)
        guard fd >= 0 else { return failure(POSIX.errno, "cannot open it: ") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return failure(POSIX.errno, "cannot inspect it: ") }
        guard info.st_mode & S_IFMT == S_IFREG, Int64(info.st_size) == entry.apparentBytes else {
            return .failed(reason: .vanished, detail: "cannot compare its content: it changed after the walk")
        }
        let wanted = min(limit, entry.apparentBytes)
        var hasher = Crypto.SHA256()
        var total: Int64 = 0
        while total < wanted {
            let count = Int(min(Int64(buffer.count), wanted - total))
            guard let base = buffer.baseAddress else { break }
            let n = pread(fd, base, count, off_t(total))
            if n < 0 {
                if POSIX.errno == EINTR { continue }
                return failure(POSIX.errno, "cannot read it: ")
            }
            if n == 0 { return .failed(reason: .vanished, detail: "cannot compare its content: it shrank while being read") }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            total += Int64(n)
        }
        guard let digest = ContentDigest(bytes: Array(hasher.finalize())) else {
            return .failed(reason: .unreadable, detail: "cannot compare its content: the digest has an unexpected length")
        }
        return .digest(digest)
    }

    private func failure(_ code: Int32, _ what: String) -> Outcome {
        .failed(reason: DirectoryLister.reason(for: code), detail: "cannot compare its content: " + what + DirectoryLister.explain(code))
    }

    private func openFile(_ index: Int32, in folder: Int32) -> Int32 {
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var fd = withName(index) { openat(folder, $0, flags | noAccessTime) }
        if fd < 0 && noAccessTime != 0 && POSIX.errno == EPERM {
            noAccessTime = 0
            fd = withName(index) { openat(folder, $0, flags) }
        }
        return fd
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
        for step in wanted[common...] {
            let parentFD = chain.last?.fd ?? rootFD
            let fd = withName(step) { openat(parentFD, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            guard fd >= 0 else { return (-1, POSIX.errno) }
            chain.append((step, fd))
        }
        return (chain.last?.fd ?? rootFD, 0)
    }

    /// The entry's name as a C string; names that could climb or are not one component open nothing.
    private func withName(_ index: Int32, _ body: (UnsafePointer<CChar>) -> Int32) -> Int32 {
        let name = inventory.name(index)
        guard !name.isEmpty, !name.contains(0), !name.contains(UInt8(ascii: "/")),
              !name.elementsEqual([UInt8(ascii: ".")]), !name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
        else {
            POSIX.setErrno(ENOENT)
            return -1
        }
        let bytes = Array(name) + [0]
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                guard let base = characters.baseAddress else { return -1 }
                return body(base)
            }
        }
    }
}
