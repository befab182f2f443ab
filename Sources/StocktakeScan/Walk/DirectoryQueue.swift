import Foundation
import StocktakeModel

struct DirectoryJob: Sendable {
    let ref: RecordRef
    /// Path relative to the container root; empty for the root.
    let path: [UInt8]
    let depth: Int
    let zone: Zone
    /// The folder's identity as its parent listing saw it: checked again when it is opened.
    let device: UInt64
    let inode: UInt64
    /// Its own size, which grows with its entries (ext4, APFS): the queue lists the largest sibling first.
    let bytes: Int64

    init(ref: RecordRef, path: [UInt8], depth: Int, zone: Zone, info: stat) {
        (self.ref, self.path, self.depth, self.zone) = (ref, path, depth, zone)
        (device, inode) = Self.identity(info)
        bytes = Int64(info.st_size)
    }

    static func identity(_ info: stat) -> (UInt64, UInt64) {
        (UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino))
    }
}

/// `directory/name`; `name` alone in the root (`directory` empty).
func joined(_ directory: [UInt8], _ name: some Collection<UInt8>) -> [UInt8] {
    directory.isEmpty ? Array(name) : directory + [UInt8(ascii: "/")] + name
}

/// The shared stack of directories to list: last in, first out keeps it short, and a listing's largest folder on top
/// keeps a huge one from ending the walk alone. The walk ends when it is empty while every worker is idle.
final class DirectoryQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [DirectoryJob] = []
    private var busyWorkers = 0
    private var finished = false

    init(first: DirectoryJob) { jobs = [first] }

    func push(_ newJobs: [DirectoryJob]) {
        guard !newJobs.isEmpty else { return }
        condition.withLock {
            jobs.append(contentsOf: newJobs.sorted { $0.bytes < $1.bytes })
            condition.broadcast()
        }
    }

    /// The next job, or nil once the walk is over. A worker calls `done()` after each job it got.
    func next() -> DirectoryJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !finished {
            if busyWorkers == 0 {
                finished = true
                condition.broadcast()
                break
            }
            condition.wait()
        }
        guard !finished, let job = jobs.popLast() else { return nil }
        busyWorkers += 1
        return job
    }

    func done() {
        condition.withLock {
            busyWorkers -= 1
            if busyWorkers == 0 && jobs.isEmpty { condition.broadcast() }
        }
    }
}
