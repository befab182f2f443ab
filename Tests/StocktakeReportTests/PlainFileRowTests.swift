import StocktakeModel
import Testing

@testable import StocktakeReport

/// Ordinary file rows are written from pre-rendered fragments; every other row by the general writer. The
/// fast rows must be byte for byte what the general writer makes of the same entry, for every value of
/// every field they cover.
@Suite struct PlainFileRowTests {
    /// Fields of the fast path, every value; plus rows it must leave to the general writer.
    static func inventory() -> (Inventory, [Int32]) {
        var builder = InventoryBuilder()
        var serial = 0
        func name() -> String {
            serial += 1
            return "Documents/f\(serial)"
        }
        for state in BackupState.allCases {
            for evidence in BackupEvidence.allCases {
                builder.add(name(), apparentBytes: 10, backup: state, evidence: evidence)
            }
        }
        // Every location, by a folder the classifier places there.
        let folders = [
            "Documents/", "Library/Application Support/", "Library/Caches/", "tmp/", "Library/Preferences/", "Library/",
            "SystemData/", "",
        ]
        #expect(
            Set(folders.map { Zone.of(path: ($0 + "f").utf8, isDirectory: false).location }) == Set(Location.allCases))
        for kind in ContentKind.allCases {
            for folder in folders {
                serial += 1
                builder.add(folder + "f\(serial)", apparentBytes: 1, kind: kind)
            }
        }
        for type in EntryType.allCases where type != .directory && type != .symlink {
            builder.add(name(), type: type, flags: [])
            builder.add(name(), type: type, flags: [.systemManaged])
        }
        let numbers: [Int64] = [
            0, 1, 9, 10, 99, 100, 12_345, 999_999_999_999, 1 << 53 + 1, .max, -1, -9, -10, -123_456, .min,
        ]
        for number in numbers {
            builder.add(name(), apparentBytes: number, allocatedBytes: number == .min ? 0 : number, modified: number)
        }
        // The general writer's rows: added keys, paths that need escaping or are not ASCII, links.
        builder.add("Documents/quote \" and \\ backslash", apparentBytes: 3)
        builder.add("Documents/tab\there", apparentBytes: 3)
        builder.add("Documents/Grüße.txt", apparentBytes: 3)
        builder.add("Documents/sparse.bin", apparentBytes: 9_000, allocatedBytes: 4096, flags: [.sparse])
        builder.add("Documents/linked.bin", apparentBytes: 5, flags: [.hardLinked, .hardLinkDuplicate])
        builder.add("Documents/link", type: .symlink, symlinkTarget: "../outside")
        builder.add("Documents/._sidecar", apparentBytes: 4096, flags: [.transportArtefact])
        builder.add("Documents/Ünïcode folder/inside.txt", apparentBytes: 8)
        builder.add("Documents/plain folder/inside.txt", apparentBytes: 8)
        builder.add("top-level.txt", apparentBytes: 8)
        // Files that inherit a folder's exclusion from backup: `excludedBy` names the folder.
        for folder in ["Documents/Offline", "Documents/Ünï offline"] {
            builder.add(folder, type: .directory, backup: .excluded, evidence: .xattr)
            builder.add(folder + "/inside.txt", apparentBytes: 8)
            builder.add(folder + "/Deeper/inside.txt", apparentBytes: 8)
        }
        let inventory = builder.build()
        var rows: [Int32] = []
        inventory.forEachInPathOrder { index in
            if !inventory.entries[Int(index)].isDirectory { rows.append(index) }
        }
        return (inventory, rows)
    }

    @Test func fastRowsAreWhatTheGeneralWriterWrites() throws {
        let (inventory, rows) = Self.inventory()
        let separator = Array(",\n    ".utf8)
        var fast: [UInt8] = []
        try EntryRows(inventory: inventory, rows: rows, separator: separator).write { fast += $0 }
        var general: [UInt8] = []
        var writer = EntryJSON(inventory: inventory)
        for (position, index) in rows.enumerated() {
            if position > 0 { general += separator }
            var row: [UInt8] = []
            writer.write(index, path: inventory.path(index), to: &row)
            general += row
        }
        let fastRows = String(decoding: fast, as: UTF8.self).components(separatedBy: ",\n    ")
        let generalRows = String(decoding: general, as: UTF8.self).components(separatedBy: ",\n    ")
        #expect(fastRows.count == rows.count)
        for (fastRow, generalRow) in zip(fastRows, generalRows) where fastRow != generalRow {
            Issue.record("fast row differs:\n\(fastRow)\ngeneral:\n\(generalRow)")
        }
        // Every row fits the fast path but the sparse, hard-linked, link and sidecar rows (three more have paths
        // it leaves to the general writer).
        let fitting = rows.filter { PlainFileRow.fits(inventory.entries[Int($0)]) }.count
        #expect(fitting == rows.count - 4)
    }

    @Test func ordinalsArePositionsInAllCases() {
        #expect(Location.allCases.map(\.ordinal) == Array(Location.allCases.indices))
        #expect(BackupState.allCases.map(\.ordinal) == Array(BackupState.allCases.indices))
        #expect(BackupEvidence.allCases.map(\.ordinal) == Array(BackupEvidence.allCases.indices))
    }
}
