import StocktakeModel
import StocktakeRendering
import Testing

@testable import StocktakeDiff

/// The terminal diff as a user reads it: aligned columns, the head of each list with an others line, and
/// no byte from a file name that a terminal would act on.
@Suite struct DiffTextWriterTests {
    static let text = try! SyntheticDiff.render(.text)

    @Test func namesCannotDriveTheTerminal() {
        let controls = Self.text.unicodeScalars.filter { (scalar: Unicode.Scalar) -> Bool in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
        }
        #expect(controls.isEmpty, "control characters reached the output: \(controls.map { $0.value })")
        #expect(Self.text.contains("Library/Caches/log\\x1b[31mred.txt"))
        #expect(Self.text.contains("A file \\x1b]0;title\\x07 here"))
        #expect(VisibleText.render("a\u{9B}b\u{202E}c\r", as: .terminal) == "a\\u{9b}b\\u{202e}c\\x0d")
    }

    @Test func headerNamesBothSidesAndTheHeadline() throws {
        #expect(
            Self.text.contains(
                "old  com.example.chat  1.4.0  exported (unknown)  report 2025-03-01T09:00:00Z  stocktake 0.1.0  reports/1.4.0/report.json"
            ))
        #expect(
            Self.text.contains(
                "new  com.example.chat  1.5.0  exported (unknown)  report 2025-04-01T09:00:00Z  stocktake 0.1.0  reports/1.5.0/report.json"
            ))
        #expect(Self.text.contains("On disk: 15.5 MB → 17.4 MB (+1.9 MB, +12.4%) · 2 new findings · 1 resolved"))
        #expect(Self.text.contains("FAILED gate  applicationSupport:10%"))
        let ungated = try SyntheticDiff.render(.text, gates: [])
        #expect(!ungated.contains("Gates"), "no gate section when no gate was asked for")
    }

    @Test func locationsTableHasEveryLocationAndATotalRowAligned() throws {
        let lines = Self.text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("  Location ") })
        let table = lines[start...].prefix { !$0.isEmpty }
        #expect(table.count == 1 + 1 + Location.allCases.count + 1 + 1, "header, rule, 8 locations, rule, TOTAL")
        for location in Location.allCases {
            #expect(table.contains { $0.hasPrefix("  \(location.title) ") }, "\(location)")
        }
        #expect(table.last?.hasPrefix("  On disk ") == true)
        let widths = table.map { (line: Substring) -> Int in TerminalText.width(String(line)) }
        #expect(Set(widths).count == 1, "every row ends in the same column")
        #expect(Self.text.contains("[NEW]") && Self.text.contains("[DEL]") && Self.text.contains("[ = ]"))
    }

    @Test func wideCharactersKeepColumnsAligned() {
        var table = TextTable([.left, .right, .left])
        table.add(["猫の写真", "1 KB", "x"])
        table.add(["cat", "10 KB", "y"])
        table.add(["📦", "100 KB", "z"])
        let lines = table.lines(indent: "")
        // 猫の写真 and 📦 take two columns per character in a terminal.
        #expect(lines == ["猫の写真    1 KB  x", "cat        10 KB  y", "📦        100 KB  z"])
        #expect(TerminalText.width("e\u{301}") == 1, "a combining accent takes no column")
    }

    @Test func showsLimitRowsAndAnOthersLine() throws {
        let text = try SyntheticDiff.render(.text, SyntheticDiff.withAddedFiles(30), limit: 20)
        let rows = text.split(separator: "\n").filter { $0.contains("Documents/many/file-") }
        #expect(rows.count == 20)
        #expect(rows.first?.hasSuffix("Documents/many/file-0.bin") == true, "largest first, as the model sorted them")
        // The ten left out are files 20...29 of 100 KB down to 10 KB: 550 KB together.
        #expect(text.contains("\n  … and 10 others (+550 KB)\n"))
        #expect(text.contains("Added files (30)"))
        let directories = try SyntheticDiff.render(.text, limit: 20)
        #expect(directories.contains("… and 4 others (-213 KB)"), "the model's own tail, when every shown row fits")
    }
}
