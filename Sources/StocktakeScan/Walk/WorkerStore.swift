import StocktakeModel

/// A reference to a record in one worker's store: the worker in the top 4 bits, the index below.
struct RecordRef: Hashable, Sendable {
    static let workerBits = 4
    static let indexMask: UInt32 = (1 << 28) - 1
    let raw: UInt32

    init(worker: Int, index: Int) { raw = UInt32(worker) << 28 | UInt32(index) }
    var worker: Int { Int(raw >> 28) }
    var index: Int { Int(raw & RecordRef.indexMask) }
}

/// One worker's output. Only its own thread touches it until the walk ends; then the assembler reads it.
final class WorkerStore: @unchecked Sendable {
    // Unchecked exclusivity: appended to once per entry by the one thread that owns the store.
    @exclusivity(unchecked) var records: [EntryRecord] = []
    @exclusivity(unchecked) var names: [UInt8] = []
    var issues: [ScanIssue] = []
    /// Entries with more than one link: counted once per (device, inode) after the walk.
    var hardLinks: [(ref: RecordRef, device: UInt64, inode: UInt64)] = []
    var symlinkTargets: [(ref: RecordRef, target: [UInt8])] = []
    var unreadable: [RecordRef] = []
    /// Text files read whole to the content pass's prefix, holding no trigger (`WalkTextScan`).
    var cleanText: [RecordRef] = []
    /// Flags for folders from their `._.` sidecar, found while listing the folder itself.
    var folderFlags: [(ref: RecordRef, flag: ExclusionFlag)] = []
    /// `__MACOSX/<path>/._name` sidecars: the flag applies to `<path>/name`, resolved after the walk.
    var sequesteredFlags: [(target: [UInt8], flag: ExclusionFlag)] = []
    var entriesWithAttributes = 0
    var appleDoubleSidecars = 0

    func append(_ record: EntryRecord) -> RecordRef? {
        guard records.count <= Int(RecordRef.indexMask) else { return nil }
        records.append(record)
        return RecordRef(worker: workerIndex, index: records.count - 1)
    }

    /// Each worker may hold a sixteenth of what 32-bit offsets address, so that all of them together fit.
    static let nameCapacity = Int(UInt32.max) / (1 << RecordRef.workerBits)

    func storeName(_ name: UnsafeBufferPointer<UInt8>) -> (offset: UInt32, length: UInt16)? {
        guard names.count + name.count <= Self.nameCapacity, name.count <= Int(UInt16.max) else { return nil }
        let offset = UInt32(names.count)
        names.append(contentsOf: name)
        return (offset, UInt16(name.count))
    }

    let workerIndex: Int
    init(workerIndex: Int) { self.workerIndex = workerIndex }
}
