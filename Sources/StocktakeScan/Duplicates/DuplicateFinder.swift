import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files whose contents are identical: grouped by size, then the SHA-256 of their first 4 KiB, then of all their
/// bytes. Reads as the walk does: never through a link, never a FIFO or device, never writing.
public struct DuplicateFinder: Sendable {
    /// Bytes hashed in the first round; files no longer than this are settled by it.
    public static let prefixLength: Int64 = 4096

    public let rootPath: String
    /// Smaller files are left out (apparent bytes; at least 1: empty files have nothing to share).
    public let minimumBytes: Int64
    public let threads: Int

    public init(rootPath: String, minimumBytes: Int64 = 1, threads: Int = 4) {
        (self.rootPath, self.minimumBytes, self.threads) = (rootPath, max(1, minimumBytes), max(1, threads))
    }

    public func find(in inventory: Inventory) throws(ScanError) -> DuplicateSearch {
        let rootFD = open(rootPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else { throw .unreadableRoot(path: rootPath, reason: SystemError.currentText) }
        defer { close(rootFD) }
        var issues: [ScanIssue] = []
        let candidates = Self.sameSizeCandidates(inventory, minimumBytes: minimumBytes)
        let first = regroup(candidates, limit: Self.prefixLength, rootFD: rootFD, inventory: inventory, issues: &issues)
        // The first round settles files no longer than the prefix; the others are hashed whole.
        let unsettled = first.filter { $0.size > Self.prefixLength }.flatMap(\.members)
        let settled =
            first.filter { $0.size <= Self.prefixLength }
            + regroup(unsettled, limit: .max, rootFD: rootFD, inventory: inventory, issues: &issues)
        return DuplicateSearch(sets: Self.inPathOrder(settled, inventory), issues: issues)
    }

    /// Counted, readable regular files (one name per inode, no transport artefact) sharing their size with another.
    static func sameSizeCandidates(_ inventory: Inventory, minimumBytes: Int64) -> [Int32] {
        var bySize: [Int64: [Int32]] = [:]
        for (offset, entry) in inventory.entries.enumerated() {
            guard entry.type == .file, entry.apparentBytes >= minimumBytes, entry.countsBytes,
                !entry.flags.contains(.transportArtefact), !entry.flags.contains(.unreadable)
            else { continue }
            bySize[entry.apparentBytes, default: []].append(Int32(offset))
        }
        return bySize.values.filter { $0.count > 1 }.flatMap { $0 }
    }

    /// The groups of two or more `candidates` of equal size and digest (of the first `limit` bytes).
    private func regroup(
        _ candidates: [Int32], limit: Int64, rootFD: Int32, inventory: Inventory, issues: inout [ScanIssue]
    ) -> [IdenticalFiles] {
        // Siblings next to each other: each worker's chain of open folders is reused across them.
        let ordered = candidates.sorted { a, b in
            let (pa, pb) = (inventory.entries[Int(a)].parent, inventory.entries[Int(b)].parent)
            return pa != pb ? pa < pb : a < b
        }
        let outcomes = ParallelHashing.run(
            ordered, limit: limit, threads: threads, rootFD: rootFD, inventory: inventory)
        var groups: [SizeAndDigest: [Int32]] = [:]
        for (index, outcome) in zip(ordered, outcomes) {
            switch outcome {
            case .digest(let digest):
                let size = inventory.entries[Int(index)].apparentBytes
                groups[SizeAndDigest(size: size, digest: digest), default: []].append(index)
            case .failed(let reason, let detail):
                issues.append(ScanIssue(path: inventory.path(index), reason: reason, detail: detail))
            }
        }
        return groups.compactMap { key, members in
            members.count > 1 ? IdenticalFiles(members: members, size: key.size, digest: key.digest) : nil
        }
    }

    /// Members in path order, sets by their first member's path: the same output on every run.
    static func inPathOrder(_ sets: [IdenticalFiles], _ inventory: Inventory) -> [IdenticalFiles] {
        let sorted = sets.compactMap { set -> (first: [UInt8], set: IdenticalFiles)? in
            let members = set.members.map { (index: $0, path: inventory.path($0)) }
                .sorted { $0.path.lexicographicallyPrecedes($1.path) }
            guard let first = members.first else { return nil }
            return (first.path, IdenticalFiles(members: members.map(\.index), size: set.size, digest: set.digest))
        }
        return sorted.sorted { $0.first.lexicographicallyPrecedes($1.first) }.map(\.set)
    }
}
