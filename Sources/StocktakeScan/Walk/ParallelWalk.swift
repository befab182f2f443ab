import Foundation
import StocktakeModel

/// Walks the tree with several threads sharing one stack of directories, each keeping its own store.
enum ParallelWalk {
    static func run(rootFD: Int32, rootPath: [UInt8], rootInfo: stat, options: ScanOptions) -> [WorkerStore] {
        let threads = min(max(1, options.threads), 1 << RecordRef.workerBits)
        let stores = (0..<threads).map { WorkerStore(workerIndex: $0) }
        let root = EntryRecord(
            parent: nil, nameOffset: 0, nameLength: 0, type: .directory, kind: .unknown, zone: .root, flags: [],
            ownFlag: .none, attributesUnreadable: false, apparentBytes: Int64(rootInfo.st_size),
            allocatedBytes: Int64(rootInfo.st_blocks) &* 512, modified: rootInfo.modificationSeconds)
        let queue = DirectoryQueue(
            first: DirectoryJob(ref: stores[0].append(root)!, path: [], depth: 0, zone: .root, info: rootInfo))
        SideBySide.onOwnThreads(threads, stackSize: 1 << 20) { worker in
            let lister = DirectoryLister(
                rootFD: rootFD, rootPath: rootPath, store: stores[worker], maxDepth: options.maxDepth,
                progress: options.progress, textScan: options.textScan)
            while let job = queue.next() {
                queue.push(lister.list(job))
                queue.done()
            }
            lister.flushProgress()
        }
        return stores
    }
}
