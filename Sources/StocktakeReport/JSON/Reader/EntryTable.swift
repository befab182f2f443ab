import StocktakeModel

/// Rows of paths with their figures, stored column by column: one byte arena for the paths and a flat
/// array per figure, so a million rows cost tens of megabytes rather than a million objects.
/// Paths are the exact bytes (a report's `rawPath` when the name is not UTF-8).
public struct EntryTable: Sendable {
    package private(set) var pathArena: [UInt8] = []
    /// End offset of each row's path in `pathArena`; a row starts where the previous one ends.
    private(set) var pathEnds: [Int] = []
    public private(set) var apparentBytes: [Int64] = []
    public private(set) var allocatedBytes: [Int64] = []
    /// Files: 1. Folders: the non-directory entries beneath (`files`).
    public private(set) var fileCounts: [Int64] = []
    /// Seconds since 1970 (`modified`).
    public private(set) var modified: [Int64] = []
    public private(set) var kinds: [ContentKind] = []
    public private(set) var locations: [Location] = []

    public init() {}

    public var count: Int { pathEnds.count }

    public mutating func append(
        path: some Collection<UInt8>, apparentBytes apparent: Int64, allocatedBytes allocated: Int64, files: Int64 = 1,
        modified time: Int64, kind: ContentKind, location: Location
    ) {
        pathArena.append(contentsOf: path)
        pathEnds.append(pathArena.count)
        apparentBytes.append(apparent)
        allocatedBytes.append(allocated)
        fileCounts.append(files)
        modified.append(time)
        kinds.append(kind)
        locations.append(location)
    }

    public func pathBytes(at row: Int) -> ArraySlice<UInt8> { pathArena[pathRange(row)] }

    package func pathRange(_ row: Int) -> Range<Int> { (row == 0 ? 0 : pathEnds[row - 1])..<pathEnds[row] }

    /// The path for display (U+FFFD where the bytes are not UTF-8).
    public func path(at row: Int) -> String { String(decoding: pathBytes(at: row), as: UTF8.self) }

    /// The last component's bytes (the file name).
    public func nameBytes(at row: Int) -> ArraySlice<UInt8> {
        let path = pathBytes(at: row)
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return path[(slash + 1)...]
    }

    public func size(at row: Int) -> SizeTotal {
        SizeTotal(files: Int(fileCounts[row]), apparentBytes: apparentBytes[row], allocatedBytes: allocatedBytes[row])
    }
}
