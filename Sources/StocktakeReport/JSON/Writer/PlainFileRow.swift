import StocktakeModel

/// The row of an ordinary file (`files[]`), written with a few copies of pre-rendered fragments: no hard
/// link, no link target, no flag that adds a key, and paths (its own, the flagged folder's) of printable ASCII.
/// That is nearly every row of a large report; `EntryJSON` writes the others, and the bytes are the same
/// as it would write (keys sorted, compact).
struct PlainFileRow {
    private static let flagsWithKeys: EntryFlags = [
        .escapesContainer, .hardLinked, .sparse, .transportArtefact, .unreadable,
    ]

    /// Whether `entry` (with its path's printability known) takes this row.
    static func fits(_ entry: Entry) -> Bool {
        !entry.isDirectory && entry.type != .symlink && entry.flags.isDisjoint(with: flagsWithKeys)
    }

    /// Bytes of a path that `JSONStream` writes verbatim between quotes.
    @inline(__always) static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !isPlain(byte) { return false }
        return true
    }

    /// The most bytes a row takes beyond its path (longest fragments, 20-digit numbers).
    static let maxBytesBesidesPath = 80 + 3 * 20 + Fragments.longest

    /// Appends the row: `{"allocatedBytes":…,"apparentBytes":…` + backup fragment + excludedBy +
    /// kind/location fragment + modified + path + tail fragment.
    static func write(
        _ entry: Entry, excludedBy: UnsafeBufferPointer<UInt8>?, folder: UnsafeBufferPointer<UInt8>,
        name: UnsafeBufferPointer<UInt8>, to out: inout RowBuffer
    ) {
        out.append(Fragments.opening)
        out.appendDigits(entry.allocatedBytes)
        out.append(Fragments.apparent)
        out.appendDigits(entry.apparentBytes)
        out.append(Fragments.shared.backup[entry.backup.ordinal * Fragments.evidenceCount + entry.evidence.ordinal])
        if let excludedBy {
            out.append(Fragments.excludedBy)
            out.append(excludedBy)
            out.append(Fragments.quote)
        }
        out.append(
            Fragments.shared.kindAndLocation[
                Int(entry.kind.rawValue) * Fragments.locationCount + entry.location.ordinal])
        out.appendDigits(entry.modified)
        out.append(Fragments.path)
        out.append(folder)
        out.append(name)
        out.append(
            Fragments.shared.tail[
                (entry.flags.contains(.systemManaged) ? 1 : 0) * Fragments.typeCount + Int(entry.type.rawValue)])
    }

    /// Every fixed run of bytes a plain row holds, rendered once.
    struct Fragments: @unchecked Sendable {
        static let shared = Fragments()
        static let opening = RowFragment("{" + key(.allocatedBytes))
        static let apparent = RowFragment("," + key(.apparentBytes))
        static let path = RowFragment("," + key(.path) + "\"")
        static let excludedBy = RowFragment("," + key(.excludedBy) + "\"")
        static let quote = RowFragment("\"")
        static let evidenceCount = BackupEvidence.allCases.count
        static let locationCount = Location.allCases.count
        static let typeCount = Int(EntryType.allCases.map(\.rawValue).max()!) + 1
        static let kindCount = Int(ContentKind.allCases.map(\.rawValue).max()!) + 1
        static var longest: Int { (shared.backup + shared.kindAndLocation + shared.tail).map(\.count).max() ?? 0 }

        /// `,"backup":"…","backupEvidence":"…"` by state and evidence.
        let backup: [RowFragment]
        /// `,"kind":"…","location":"…","modified":` by kind and location.
        let kindAndLocation: [RowFragment]
        /// `","systemManaged":…,"type":"…"}` by the flag and the type.
        let tail: [RowFragment]

        /// `"name":`, from report.json's key table.
        static func key(_ name: ReportKeys.Entry) -> String { "\"\(name.rawValue)\":" }

        private init() {
            func quoted(_ text: String) -> String { String(decoding: EntryJSON.quoted(text), as: UTF8.self) }
            let key = Self.key
            var backup: [RowFragment] = []
            for state in BackupState.allCases {
                for evidence in BackupEvidence.allCases {
                    backup.append(
                        RowFragment(
                            ",\(key(.backup))\(quoted(state.rawValue)),\(key(.backupEvidence))\(quoted(evidence.rawValue))"
                        ))
                }
            }
            var kindAndLocation = [RowFragment](repeating: RowFragment(""), count: Self.kindCount * Self.locationCount)
            for kind in ContentKind.allCases {
                for location in Location.allCases {
                    kindAndLocation[Int(kind.rawValue) * Self.locationCount + location.ordinal] = RowFragment(
                        ",\(key(.kind))\(quoted(kind.name)),\(key(.location))\(quoted(location.rawValue)),\(key(.modified))"
                    )
                }
            }
            var tail = [RowFragment](repeating: RowFragment(""), count: 2 * Self.typeCount)
            for managed in [false, true] {
                for type in EntryType.allCases {
                    tail[(managed ? 1 : 0) * Self.typeCount + Int(type.rawValue)] = RowFragment(
                        "\",\(key(.systemManaged))\(managed),\(key(.type))\(quoted(type.name))}")
                }
            }
            (self.backup, self.kindAndLocation, self.tail) = (backup, kindAndLocation, tail)
        }
    }
}

/// A fixed run of bytes, kept in memory that is never freed (the fragments live as long as the process):
/// copying it costs no reference counting.
struct RowFragment: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }

    init(_ text: String) {
        let utf8 = Array(text.utf8)
        let memory = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, utf8.count))
        _ = memory.initialize(from: utf8)
        bytes = UnsafeBufferPointer(rebasing: memory[0..<utf8.count])
    }
}

/// A chunk's bytes, grown by doubling and written through a pointer: rows are copied in without the
/// uniqueness and capacity checks of an array append per piece. Callers reserve a row's room first.
struct RowBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 4096)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).initialize(from: start, count: bytes.count)
        count += bytes.count
    }

    @inline(__always) mutating func append(_ fragment: RowFragment) { append(fragment.bytes) }

    /// With room reserved beyond the row estimate (the general writer's rows are copied in whole).
    mutating func append(_ bytes: [UInt8]) {
        reserve(bytes.count)
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Decimal digits, as `JSONDigits` writes them.
    @inline(__always) mutating func appendDigits(_ value: Int64) {
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var rest = value.magnitude
        var length = 1
        var scale: UInt64 = 10
        while length < 20 && rest >= scale {
            length += 1
            if length == 20 { break }
            scale &*= 10
        }
        var position = count + length
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
        count += length
    }

    consuming func bytes() -> [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
