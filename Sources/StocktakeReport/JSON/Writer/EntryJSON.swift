import StocktakeModel
import StocktakeRendering

/// Writes rows of `files[]` or `directories[]`. Optional keys appear only when they say something, which
/// keeps a million rows small. One writer serves many rows (copying the inventory per row costs more
/// than writing the row). Rows are compact objects with sorted keys, appended as bytes straight into the
/// chunk being rendered: the same bytes `JSONStream` would write, without its bookkeeping per key.
struct EntryJSON {
    let inventory: Inventory
    /// The last flagged ancestor's path: many entries share one, so it is built once.
    private var lastExcludedBy: (index: Int32, path: [UInt8])?

    init(inventory: Inventory) { self.inventory = inventory }

    mutating func write(_ index: Int32, path: [UInt8], to out: inout [UInt8]) {
        let entry = inventory.entries[Int(index)]
        let flags = entry.flags
        var row = RowWriter(out: out)
        out = []
        defer { out = row.finish() }
        row.field(.allocatedBytes, .int(entry.allocatedBytes))
        row.field(.apparentBytes, .int(entry.apparentBytes))
        row.field(.backup, .literal(Self.backupNames[Self.position(of: entry.backup)]))
        row.field(.backupEvidence, .literal(Self.evidenceNames[Self.position(of: entry.evidence)]))
        if flags.contains(.escapesContainer) { row.field(.escapesContainer, .bool(true)) }
        let excludedBy = entry.excludedBy >= 0 ? excludedByPath(entry.excludedBy) : nil
        if let excludedBy { row.field(.excludedBy, .string(PathText.display(excludedBy))) }
        let total = entry.isDirectory ? inventory.directoryTotals[index] : nil
        if let total { row.field(.files, .int(Int64(total.files))) }
        if flags.contains(.hardLinked) {
            row.field(.hardLink, .string(flags.contains(.hardLinkDuplicate) ? "duplicate" : "counted"))
        }
        if !entry.isDirectory { row.field(.kind, .literal(Self.kindNames[Int(entry.kind.rawValue)])) }
        row.field(.location, .literal(Self.locationNames[Self.position(of: entry.location)]))
        row.field(.modified, .int(entry.modified))
        let pathIsText = PathText.isValidUTF8(path)
        row.field(.path, pathIsText ? .utf8(path) : .string(PathText.display(path)))
        if let excludedBy, !PathText.isValidUTF8(excludedBy) {
            row.field(.rawExcludedBy, .string(Base64.encode(excludedBy)))
        }
        if !pathIsText { row.field(.rawPath, .string(Base64.encode(path))) }
        let target = entry.type == .symlink ? inventory.symlinkTargets[index] : nil
        if let target, !PathText.isValidUTF8(target) { row.field(.rawSymlinkTarget, .string(Base64.encode(target))) }
        if flags.contains(.sparse) { row.field(.sparse, .bool(true)) }
        if let target { row.field(.symlinkTarget, .string(PathText.display(target))) }
        row.field(.systemManaged, .bool(flags.contains(.systemManaged)))
        if let total {
            row.field(.totalAllocatedBytes, .int(total.allocatedBytes))
            row.field(.totalApparentBytes, .int(total.apparentBytes))
        }
        if flags.contains(.transportArtefact) { row.field(.transportArtefact, .bool(true)) }
        row.field(.type, .literal(Self.typeNames[Int(entry.type.rawValue)]))
        if flags.contains(.unreadable) { row.field(.unreadable, .bool(true)) }
    }

    private mutating func excludedByPath(_ index: Int32) -> [UInt8] {
        if let last = lastExcludedBy, last.index == index { return last.path }
        let path = inventory.path(index)
        lastExcludedBy = (index, path)
        return path
    }

    /// Enum values as quoted JSON strings, rendered once.
    private static let kindNames: [[UInt8]] = {
        var names = [[UInt8]](repeating: [], count: Int(ContentKind.allCases.map(\.rawValue).max()!) + 1)
        for kind in ContentKind.allCases { names[Int(kind.rawValue)] = quoted(kind.name) }
        return names
    }()
    private static let typeNames: [[UInt8]] = {
        var names = [[UInt8]](repeating: [], count: Int(EntryType.allCases.map(\.rawValue).max()!) + 1)
        for type in EntryType.allCases { names[Int(type.rawValue)] = quoted(type.name) }
        return names
    }()
    private static let backupNames = BackupState.allCases.map { quoted($0.rawValue) }
    private static let evidenceNames = BackupEvidence.allCases.map { quoted($0.rawValue) }
    private static let locationNames = Location.allCases.map { quoted($0.rawValue) }

    private static func position<Value: CaseIterable & Equatable>(of value: Value) -> Int
    where Value.AllCases == [Value] { Value.allCases.firstIndex(of: value)! }

    static func quoted(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var text = text
        text.withUTF8 { JSONString.appendQuoted($0, to: &bytes) }
        return bytes
    }
}

/// Appends one compact JSON object (`{"key":value,…}`) to a byte array; keys are written in the order
/// given (callers give them sorted), strings escaped by `JSONString`, as `JSONStream` escapes them.
private struct RowWriter {
    private var out: [UInt8]
    private var opened = false

    init(out: [UInt8]) { self.out = out }

    /// A value of a row: a number, a boolean, text to escape, bytes known to be valid UTF-8, or a value already
    /// rendered as JSON (the enum names, quoted once).
    enum Value {
        case int(Int64)
        case bool(Bool)
        case string(String)
        case utf8([UInt8])
        case literal([UInt8])
    }

    @inline(__always)
    mutating func field(_ name: ReportKeys.Entry, _ value: Value) {
        out.append(opened ? UInt8(ascii: ",") : UInt8(ascii: "{"))
        opened = true
        out.append(UInt8(ascii: "\""))
        var text = name.rawValue
        text.withUTF8 { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
        switch value {
        case .int(let number): JSONDigits.append(number, to: &out)
        case .bool(let flag): out.append(contentsOf: flag ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .string(var text): text.withUTF8 { JSONString.appendQuoted($0, to: &out) }
        case .utf8(let bytes): bytes.withUnsafeBufferPointer { JSONString.appendQuoted($0, to: &out) }
        case .literal(let bytes): out.append(contentsOf: bytes)
        }
    }

    /// The bytes with the object closed (an object without keys is `{}`).
    mutating func finish() -> [UInt8] {
        if !opened { return out }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
