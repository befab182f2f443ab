import Foundation
import StocktakeModel
import StocktakeReport
import TestSupport
import Testing

/// The export must open in ncdu (`ncdu -f`) and ncdu must see the inventory's totals.
@Suite struct NCDUExportTests {
    static let requirement = OutsideTools.has("ncdu") || OutsideTools.required

    /// An inventory with what ncdu marks specially: an unreadable folder, a FIFO, a symlink, a hard link.
    static func oddInventory() -> Inventory {
        var builder = InventoryBuilder()
        builder.add("Documents/locked", type: .directory, flags: .unreadable)
        builder.add("tmp/pipe", type: .fifo, apparentBytes: 0, allocatedBytes: 0)
        builder.add("Documents/a.bin", apparentBytes: 9_000, flags: .hardLinked)
        builder.add("Documents/b.bin", apparentBytes: 9_000, flags: [.hardLinked, .hardLinkDuplicate])
        builder.add(pathBytes: Array("Documents/".utf8) + SyntheticContainer.nonUTF8Name, apparentBytes: 10)
        return builder.build(issues: [], evidence: SyntheticContainer.evidence)
    }

    @Test(
        .enabled(
            if: NCDUExportTests.requirement,
            "ncdu not found (apt-get install ncdu); \(OutsideTools.requirementHint)"),
        arguments: [false, true])
    func ncduAcceptsItAndSeesTheInventorysTotals(odd: Bool) throws {
        try #require(OutsideTools.has("ncdu"), "ncdu is not installed")
        let report = odd ? SyntheticReport.make(inventory: Self.oddInventory()) : FindingsReport.make()
        let file = try ExternalTools.temporaryFile("report.ncdu.json", try FindingsReport.rendered(.ncdu, report))
        let check = try StocktakeProcess.runCommand(["ncdu", "-f", file, "-o", "/dev/null"])
        #expect(check.status == 0, "ncdu rejected the export: \(check.stderr)")

        // ncdu re-exports what it imported: its view of every item and size.
        let reexport = file + ".ncdu"
        let again = try StocktakeProcess.runCommand(["ncdu", "-f", file, "-o", reexport])
        #expect(again.status == 0, "\(again.stderr)")
        let seen = try [UInt8](Data(contentsOf: URL(fileURLWithPath: reexport)))
        let totals = report.inventory.totals.onDisk
        #expect(Self.sum(of: "asize", in: seen) == totals.apparentBytes, "apparent bytes, hard links once")
        #expect(Self.sum(of: "dsize", in: seen) == totals.allocatedBytes, "allocated bytes, hard links once")
        #expect(
            Self.occurrences(of: "\"name\":", in: seen) == report.inventory.entries.count,
            "every entry, the root included")
        let rootName = "\"name\":\"" + report.container.rootPath.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        #expect(Self.occurrences(of: rootName, in: seen) == 1, "the root is named by the container's root path")
        let rawName = Array("\"".utf8) + SyntheticContainer.nonUTF8Name + Array("\"".utf8)
        #expect(Self.occurrences(of: rawName, in: seen) == 1, "a name that is not UTF-8 keeps its bytes through ncdu")
    }

    @Test func marksSpecialEntriesAsNcduDoes() throws {
        let text = String(
            decoding: try FindingsReport.rendered(.ncdu, SyntheticReport.make(inventory: Self.oddInventory())),
            as: UTF8.self
        )
        #expect(
            text.hasPrefix("[1,2,{\"progname\":\"stocktake\",\"progver\":\"0.1.0-test\",\"timestamp\":1795262400},\n[{")
        )
        #expect(text.contains("[{\"name\":\"locked\",\"asize\":4096,\"dsize\":4096,\"read_error\":true}]"))
        #expect(text.contains("{\"name\":\"pipe\",\"notreg\":true}"))
        #expect(text.contains("{\"name\":\"a.bin\",\"asize\":9000,\"dsize\":12288,\"ino\":"))
        #expect(text.contains("{\"name\":\"b.bin\",\"ino\":"), "the second name of a file carries no bytes")
        #expect(text.hasSuffix("]]\n"))
    }

    @Test func controlCharactersInNamesAreEscaped() throws {
        let text = String(decoding: try FindingsReport.rendered(.ncdu), as: UTF8.self)
        #expect(text.contains("{\"name\":\"a \\\"quoted\\\" & 'single'\\nline.txt\""))
        #expect(
            text.split(separator: "\n").count == FindingsReport.make().inventory.entries.count + 1,
            "a line per entry after the header")
    }

    static func sum(of key: String, in bytes: [UInt8]) -> Int64 {
        // Inside a JSON string every quote is escaped, so `"asize":` only matches real keys.
        let pattern = Array("\"\(key)\":".utf8)
        var total: Int64 = 0
        var i = 0
        while let start = find(pattern, in: bytes, from: i) {
            var j = start + pattern.count
            var value: Int64 = 0
            while j < bytes.count, (0x30...0x39).contains(bytes[j]) {
                value = value * 10 + Int64(bytes[j] - 0x30)
                j += 1
            }
            total += value
            i = j
        }
        return total
    }

    static func occurrences(of text: String, in bytes: [UInt8]) -> Int { occurrences(of: Array(text.utf8), in: bytes) }

    static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> Int {
        var count = 0
        var i = 0
        while let start = find(pattern, in: bytes, from: i) {
            count += 1
            i = start + pattern.count
        }
        return count
    }

    static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count, from <= bytes.count - pattern.count else { return nil }
        for start in from...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<start + pattern.count].elementsEqual(pattern) { return start }
        }
        return nil
    }
}
