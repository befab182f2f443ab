import StocktakeModel

/// Reads `files[]` or `directories[]` straight into an `EntryTable`: the one loop that runs a million
/// times, so keys are matched as bytes, unneeded values skipped unparsed, and nothing is allocated per row.
struct EntryRowsReader {
    /// `files` or `directories` (for messages).
    let section: String
    let directories: Bool
    /// Names as bytes, indexed like `ContentKind.allCases` and `Location.allCases`.
    private let kindNames = ContentKind.allCases.map { Array($0.name.utf8) }
    private let locationNames = Location.allCases.map { Array($0.rawValue.utf8) }
    private let locations = Location.allCases
    /// The keys of report.json's table that rows are read for, grouped by length.
    private let keysByLength: [[(ReportKeys.Entry, [UInt8])]] = {
        let used: [ReportKeys.Entry] = [
            .path, .kind, .files, .rawPath, .modified, .location, .apparentBytes, .allocatedBytes, .totalApparentBytes,
            .totalAllocatedBytes,
        ]
        var table = [[(ReportKeys.Entry, [UInt8])]](repeating: [], count: used.map(\.rawValue.utf8.count).max()! + 1)
        for key in used { table[key.rawValue.utf8.count].append((key, Array(key.rawValue.utf8))) }
        return table
    }()

    func read(_ json: inout JSONScanner) throws(JSONReadFailure) -> EntryTable {
        do { try json.beginArray() } catch { throw error.located(at: section) }
        var table = EntryTable()
        var row = Row()
        var first = true
        var index = 0
        while try json.nextElement(first: &first) {
            do { try json.beginObject() } catch { throw error.located(at: KeyPath.element(section, index)) }
            row.reset()
            do { try readMembers(&json, into: &row, index: index) } catch {
                throw error.located(at: KeyPath.member(KeyPath.element(section, index), json.lastKey()))
            }
            try append(row, to: &table, index: index)
            index += 1
            if index & 1023 == 0 { json.releaseConsumed() }
        }
        return table
    }

    /// The figures of one row, collected until its closing brace; nil until its key is read.
    private struct Row {
        var path: [UInt8] = []
        var hasPath = false
        var pathIsRaw = false
        var apparent: Int64?, allocated: Int64?, totalApparent: Int64?, totalAllocated: Int64?
        var files: Int64?, modified: Int64?, location: Location?
        var kind = ContentKind.unknown

        /// Empty again, keeping the path's buffer.
        mutating func reset() {
            self = Row(path: path)
            path.removeAll(keepingCapacity: true)
        }
    }

    /// Reads the members of one row; keys it does not use (backup, type, symlinkTarget, keys of later
    /// versions) are skipped.
    @inline(__always)
    private func readMembers(_ json: inout JSONScanner, into row: inout Row, index: Int) throws(JSONReadFailure) {
        var first = true
        while let key = try json.nextKey(first: &first) {
            switch usedKey(key) {
            case .path?:
                let path = try json.string()
                if !row.pathIsRaw {
                    row.path.removeAll(keepingCapacity: true)
                    row.path.append(contentsOf: path)
                }
                row.hasPath = true
            case .kind?: row.kind = kind(try json.string())
            case .files?: row.files = try json.size(at: rowPath(index, .files))
            case .rawPath?:
                guard let bytes = Base64.decode(try json.string()) else {
                    throw JSONReadFailure.schema(path: rowPath(index, .rawPath), problem: "not base64")
                }
                row.path = bytes
                row.pathIsRaw = true
            case .modified?: row.modified = try json.integer()
            case .location?: row.location = try location(try json.string(), index: index)
            case .apparentBytes?: row.apparent = try json.size(at: rowPath(index, .apparentBytes))
            case .allocatedBytes?: row.allocated = try json.size(at: rowPath(index, .allocatedBytes))
            case .totalApparentBytes?: row.totalApparent = try json.size(at: rowPath(index, .totalApparentBytes))
            case .totalAllocatedBytes?: row.totalAllocated = try json.size(at: rowPath(index, .totalAllocatedBytes))
            default: try json.skipValue()
            }
        }
    }

    /// The key among those this reader uses, matched as bytes against the one or two of its length.
    @inline(__always) private func usedKey(_ key: UnsafeBufferPointer<UInt8>) -> ReportKeys.Entry? {
        guard key.count < keysByLength.count else { return nil }
        for (candidate, bytes) in keysByLength[key.count] where key.elementsEqual(bytes) { return candidate }
        return nil
    }

    /// Adds the row, or names the first key it lacks (in the order the row's figures are given).
    private func append(_ row: Row, to table: inout EntryTable, index: Int) throws(JSONReadFailure) {
        func needed<Value>(_ value: Value?, _ key: ReportKeys.Entry) throws(JSONReadFailure) -> Value {
            try required(value, rowPath(index, key))
        }
        guard row.hasPath else { throw JSONReadFailure.missing(rowPath(index, .path)) }
        if directories {
            table.append(
                path: row.path, apparentBytes: try needed(row.totalApparent, .totalApparentBytes),
                allocatedBytes: try needed(row.totalAllocated, .totalAllocatedBytes),
                files: try needed(row.files, .files), modified: try needed(row.modified, .modified), kind: .unknown,
                location: try needed(row.location, .location))
        } else {
            table.append(
                path: row.path, apparentBytes: try needed(row.apparent, .apparentBytes),
                allocatedBytes: try needed(row.allocated, .allocatedBytes), files: 1,
                modified: try needed(row.modified, .modified), kind: row.kind,
                location: try needed(row.location, .location))
        }
    }

    /// A kind this version does not know (a later one detects more) reads as unknown.
    @inline(__always) private func kind(_ name: UnsafeBufferPointer<UInt8>) -> ContentKind {
        for (raw, candidate) in kindNames.enumerated() where name.elementsEqual(candidate) {
            return ContentKind(rawValue: UInt8(raw)) ?? .unknown
        }
        return .unknown
    }

    @inline(__always)
    private func location(_ name: UnsafeBufferPointer<UInt8>, index: Int) throws(JSONReadFailure) -> Location {
        for (position, candidate) in locationNames.enumerated() where name.elementsEqual(candidate) {
            return locations[position]
        }
        let known = Location.allCases.map(\.rawValue).joined(separator: ", ")
        throw JSONReadFailure.schema(
            path: rowPath(index, .location),
            problem: "\(VisibleText.quoted(String(decoding: name, as: UTF8.self))) is not a location (\(known))")
    }

    private func rowPath(_ index: Int, _ key: ReportKeys.Entry) -> String {
        KeyPath.member(KeyPath.element(section, index), key.rawValue)
    }
}
