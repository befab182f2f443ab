/// A count of entries with their apparent and allocated bytes.
public struct SizeTotal: Sendable, Equatable {
    public var files: Int
    public var apparentBytes: Int64
    public var allocatedBytes: Int64

    public init(files: Int = 0, apparentBytes: Int64 = 0, allocatedBytes: Int64 = 0) {
        (self.files, self.apparentBytes, self.allocatedBytes) = (files, apparentBytes, allocatedBytes)
    }

    public static let zero = SizeTotal()

    /// Adds one entry: it always counts as a file; its bytes only once per inode.
    public mutating func add(_ entry: Entry) {
        files += 1
        guard entry.countsBytes else { return }
        apparentBytes = apparentBytes.saturatingAdd(entry.apparentBytes)
        allocatedBytes = allocatedBytes.saturatingAdd(entry.allocatedBytes)
    }

    public mutating func add(_ other: SizeTotal) {
        files = files.saturatingAdd(other.files)
        apparentBytes = apparentBytes.saturatingAdd(other.apparentBytes)
        allocatedBytes = allocatedBytes.saturatingAdd(other.allocatedBytes)
    }
}

/// The container's totals (contract: see docs/reports.md, "Figures").
public struct InventoryTotals: Sendable, Equatable {
    /// Every entry under the root, directories and sidecars included, hard links once: equals `du -s -B1`
    /// (allocated) and `du -s -b` (apparent) on the same tree. `files` counts every entry.
    public let onDisk: SizeTotal
    /// App data per location: non-directory entries, transport artefacts left out.
    public let byLocation: [Location: SizeTotal]
    /// The directories' own sizes (what `du` adds for the folders themselves).
    public let directories: SizeTotal
    /// AppleDouble sidecars and `__MACOSX/`: evidence, not the app's data.
    public let transportArtefacts: SizeTotal
    /// App data outside Caches and tmp, as Settings ▸ iPhone Storage shows "Documents & Data".
    public let documentsAndData: SizeTotal
    /// Caches + tmp: what the system may purge.
    public let purgeable: SizeTotal
    public let backup: [BackupState: SizeTotal]

    /// The app's files: every location summed (docs/reports.md, "Figures": App data).
    public var appData: SizeTotal {
        Location.allCases.reduce(into: SizeTotal.zero) { sum, location in sum.add(byLocation[location] ?? .zero) }
    }

    public init(entries: [Entry]) {
        var onDisk = SizeTotal()
        var directories = SizeTotal()
        var transport = SizeTotal()
        var documentsAndData = SizeTotal()
        var purgeable = SizeTotal()
        // Indexed by case, not hashed per entry: this runs over every entry of a million-file audit.
        let locations = Location.allCases
        let states = BackupState.allCases
        var byLocation = [SizeTotal](repeating: .zero, count: locations.count)
        var backup = [SizeTotal](repeating: .zero, count: states.count)
        for entry in entries {
            onDisk.add(entry)
            if entry.isDirectory {
                directories.add(entry)
            } else if entry.flags.contains(.transportArtefact) {
                transport.add(entry)
            } else {
                byLocation[entry.location.ordinal].add(entry)
                backup[entry.backup.ordinal].add(entry)
                if entry.location.isPurgeable { purgeable.add(entry) } else { documentsAndData.add(entry) }
            }
        }
        self.onDisk = onDisk
        self.byLocation = Dictionary(uniqueKeysWithValues: zip(locations, byLocation))
        self.directories = directories
        transportArtefacts = transport
        self.documentsAndData = documentsAndData
        self.purgeable = purgeable
        self.backup = Dictionary(uniqueKeysWithValues: zip(states, backup))
    }
}

extension FixedWidthInteger where Self: SignedInteger {
    /// `self + other`, stopping at the limits instead of trapping: sizes come from hostile trees (sparse files can
    /// claim exabytes each), counts from a report or a history (another machine's word).
    @inlinable public func saturatingAdd(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, stopping at the limits: a delta between two hostile reports never traps or wraps
    /// (a wrapped delta reads as shrinkage and lets a growth gate pass).
    @inlinable public func saturatingSubtract(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}

extension Sequence where Element: FixedWidthInteger & SignedInteger {
    /// The sum, stopping at the limits: the one way recorded or reported sizes and counts are added up.
    @inlinable public func saturatingSum() -> Element { reduce(0) { $0.saturatingAdd($1) } }
}
