import TestSupport
import Testing

@testable import StocktakeDiff

/// The Markdown diff as it lands in a pull-request comment: a one-line headline, and tables no name can
/// break, turn into markup or use to drive the reader's terminal.
@Suite struct DiffMarkdownWriterTests {
    static let markdown = try! SyntheticDiff.render(.markdown)

    @Test func headlineAndGates() {
        #expect(Self.markdown.hasPrefix("### Stocktake diff: com.example.chat 1.4.0 → 1.5.0\n\n"))
        #expect(
            Self.markdown.contains("\n**Storage** 15.5 MB → 17.4 MB (+1.9 MB, +12.4%) · 2 new findings · 1 resolved\n"))
        #expect(
            Self.markdown.contains("- **FAILED** applicationSupport:10%: applicationSupport grew 25.0% (limit 10%)\n"))
        #expect(Self.markdown.contains("- passed new findings &gt;= error:"))
    }

    /// Every row of every table has exactly as many cells as its header.
    @Test func everyTableRowKeepsItsColumns() {
        var columns: Int?
        var checked = 0
        for line in Self.markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                columns = nil
                continue
            }
            if line.hasPrefix("|---") { continue }
            let separators = MarkdownTable.cellSeparators(line)
            if let columns {
                #expect(separators == columns, "row with \(separators) pipes under a header with \(columns): \(line)")
                checked += 1
            } else {
                columns = separators
            }
        }
        #expect(checked > 30)
    }

    @Test func hostileNamesAreEscapedInCells() {
        #expect(
            Self.markdown.contains(
                "| Documents/&lt;script&gt;alert('x')&lt;/script&gt;.jpg | 0 bytes | 250 KB | +250 KB | \\[NEW\\] |"))
        #expect(Self.markdown.contains("| Documents/notes \\| draft \\`v2\\`.txt |"))
        #expect(Self.markdown.contains("| work \\| team |"))
        #expect(Self.markdown.contains("| &lt;b&gt;bold&lt;/b&gt; |"))
        #expect(Self.markdown.contains("| Library/Caches/log␛\\[31mred.txt |"), "ESC shown as a control picture")
        #expect(Self.markdown.contains("Documents/写真/猫の写真.heic"))
        #expect(!Self.markdown.contains("<script") && !Self.markdown.contains("<b>bold"))
        #expect(!Self.markdown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func listsFoldWhenLongAndRisksStayOpen() throws {
        #expect(Self.markdown.contains("> [!WARNING]\n> **Left behind:** 1 file was copied"))
        #expect(
            Self.markdown.contains(
                "> - copied to Library/Application Support/Attachments/photo-1.jpg but the original at Documents/Attachments/photo-1.jpg is still there"
            ))
        #expect(Self.markdown.contains("#### New findings (2)"))
        let long = try SyntheticDiff.render(.markdown, SyntheticDiff.withAddedFiles(30), limit: 20)
        #expect(long.contains("<details><summary><b>Added files</b> (30)</summary>\n\n| Path |"))
        #expect(long.components(separatedBy: "| Documents/many/file-").count - 1 == 20)
        #expect(long.contains("| … and 10 others (+550 KB) | | | | |"))
    }

    @Test func budgetsAndGroupsAppear() {
        #expect(
            Self.markdown.contains("| applicationSupport | 8.0 MB of 9.0 MB | 10.0 MB of 9.0 MB | **now exceeded** |"))
        #expect(Self.markdown.contains("#### Group chats (5)"))
    }
}
