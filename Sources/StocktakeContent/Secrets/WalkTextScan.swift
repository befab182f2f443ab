import Foundation
import StocktakeFiles

/// Text files read by the walk while it has their folder open (or by an archive's first pass as they stream by), so
/// that the content pass need not find and open them again: the walk reads each candidate's prefix and runs the
/// trigger scan, and the pass reads again only the few that may hold a secret. One per walk; the walk's assembly
/// records the clean files, then the pass reads them.
public final class WalkTextScan: @unchecked Sendable {
    /// The prefix read, as the pass would read it (`ContentInspector.Budget.textFileBytes`).
    public let prefixBytes: Int
    private let lock = NSLock()
    private var clean: Set<Int32> = []

    public init(prefixBytes: Int = ContentInspector.Budget().textFileBytes) { self.prefixBytes = prefixBytes }

    /// Entries whose whole prefix the walk read and found no trigger in.
    package func recordClean(_ entries: [Int32]) { lock.withLock { clean.formUnion(entries) } }

    func isClean(_ entry: Int32) -> Bool { lock.withLock { clean.contains(entry) } }

    /// Whether a file's first `min(size, prefixBytes)` bytes, read into `buffer`, hold no trigger; false when they
    /// could not all be read (the pass then reads the file itself, and says why if it cannot).
    package func readsClean(_ file: RegularFile, buffer: UnsafeMutableRawBufferPointer) -> Bool {
        let wanted = Int(min(file.size, Int64(min(prefixBytes, buffer.count))))
        let slice = UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(wanted))
        guard let count = try? file.readPrefix(into: slice), count == wanted else { return false }
        return Self.holdsNoTrigger(UnsafeRawBufferPointer(slice))
    }

    /// Whether a text file's prefix holds none of the fragments every secret the pass finds in text contains.
    package static func holdsNoTrigger(_ prefix: UnsafeRawBufferPointer) -> Bool { !TextSecrets.mayHoldSecret(prefix) }

}
