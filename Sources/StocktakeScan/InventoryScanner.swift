import StocktakeContent
import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

public struct ScanOptions: Sendable {
    /// Threads sharing the walk. More than the cores helps on a cold cache (more I/O in flight).
    public var threads: Int
    /// Folders deeper than this are recorded but not listed (an issue says so).
    public var maxDepth: Int
    /// The user vouches that the export pipeline keeps extended attributes.
    public var xattrsPreserved: Bool
    public var progress: ScanProgress?
    /// Where the walk and the later phases of an audit record their wall time (`--timings`); nil: not timed.
    public var timings: PhaseTimings?
    /// Text files the walk reads for the content checks while their folder is open; nil: the walk reads none.
    public var textScan: WalkTextScan?

    public init(
        threads: Int = 4, maxDepth: Int = 256, xattrsPreserved: Bool = false, progress: ScanProgress? = nil,
        timings: PhaseTimings? = nil
    ) {
        (self.threads, self.maxDepth, self.xattrsPreserved) = (threads, maxDepth, xattrsPreserved)
        (self.progress, self.timings) = (progress, timings)
    }

    public func with(textScan: WalkTextScan?) -> ScanOptions {
        var options = self
        options.textScan = textScan
        return options
    }
}

/// Walks a container root into an `Inventory`: never follows a link, opens a FIFO or device, or writes; what it cannot
/// read becomes an issue.
public enum InventoryScanner {
    public static func scan(root: String, options: ScanOptions = ScanOptions()) throws(ScanError) -> Inventory {
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadableRoot(path: root, reason: SystemError.currentText) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadableRoot(path: root, reason: SystemError.currentText) }
        var rootPath = Array(root.utf8)
        while rootPath.count > 1 && rootPath.last == UInt8(ascii: "/") { rootPath.removeLast() }
        let stores = options.timings.measure("walk") {
            ParallelWalk.run(rootFD: fd, rootPath: rootPath, rootInfo: info, options: options)
        }
        let beside = BesideSidecars.read(root: String(decoding: rootPath, as: UTF8.self), maxDepth: options.maxDepth)
        return options.timings.measure("inventory (backup state, totals)") {
            InventoryAssembler(
                stores: stores, xattrsDeclared: options.xattrsPreserved, beside: beside, textScan: options.textScan
            ).assemble()
        }
    }
}
