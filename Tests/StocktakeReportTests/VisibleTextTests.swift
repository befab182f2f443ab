import StocktakeModel
import StocktakeRendering
import Testing

@testable import StocktakeReport

/// The one table of scalars that never reach a reader as themselves, and its styles.
@Suite struct VisibleTextTests {
    /// Every scalar the table must hold, as docs/reports.md lists them.
    static let listed: [UInt32] =
        Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F)
        + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        + Array(0xFDD0...0xFDEF) + [0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF]
    static let hostile = String(String.UnicodeScalarView(listed.compactMap(Unicode.Scalar.init)))

    @Test func theTableHoldsEveryListedScalar() {
        let missing = Self.listed.filter { !VisibleText.isReplaced(Unicode.Scalar($0)!) }
        #expect(missing.isEmpty, "\(missing.map { String($0, radix: 16) })")
    }

    /// Unicode's own properties as a cross-check: every control and every bidirectional control.
    @Test func theTableCoversUnicodesControlsAndBidiControls() {
        var missing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            if (properties.generalCategory == .control || properties.isBidiControl
                || properties.isNoncharacterCodePoint)
                && !VisibleText.isReplaced(scalar)
            {
                missing.append(value)
            }
        }
        #expect(missing.isEmpty, "\(missing.map { String($0, radix: 16) })")
    }

    @Test(arguments: ["report.pdf", "Ünïcödé 日本語 😀", "👨‍👩‍👧 family", "tab-free name with spaces", "\u{FFFD}", "a\\x1b"])
    func ordinaryTextIsUnchanged(_ text: String) {
        for style in VisibleText.Style.allCases {
            #expect(VisibleText.render(text, as: style) == text, "\(style)")
        }
    }

    @Test func everyStyleReplacesEveryScalarOfTheTable() {
        for style in VisibleText.Style.allCases {
            let shown = VisibleText.render(Self.hostile, as: style)
            #expect(!shown.unicodeScalars.contains(where: VisibleText.isReplaced), "\(style)")
        }
    }

    @Test func terminalAndMessagesNameTheScalar() {
        for style in [VisibleText.Style.terminal, .message] {
            #expect(
                VisibleText.render("a\u{1B}[31mb\u{07}\r\n\t\u{0}", as: style) == "a\\x1b[31mb\\x07\\x0d\\x0a\\x09\\x00"
            )
            #expect(VisibleText.render("\u{7F}\u{9B}\u{85}", as: style) == "\\x7f\\u{9b}\\u{85}")
            #expect(VisibleText.render("invoice\u{202E}fdp.exe", as: style) == "invoice\\u{202e}fdp.exe")
            #expect(
                VisibleText.render("\u{61C}\u{2028}\u{2069}\u{FFFE}", as: style)
                    == "\\u{61c}\\u{2028}\\u{2069}\\u{fffe}")
        }
    }

    @Test func pagesShowControlPicturesOrTheReplacementCharacter() {
        for style in [VisibleText.Style.html, .markdown, .github] {
            #expect(VisibleText.render("a\u{1B}b\nc\u{7F}d\u{0}", as: style) == "a␛b␊c␡d␀")
            #expect(
                VisibleText.render("invoice\u{202E}fdp.exe\u{9B}\u{2029}", as: style)
                    == "invoice\u{FFFD}fdp.exe\u{FFFD}\u{FFFD}")
        }
    }

    /// Every human output shows the table's scalars through it (each then escapes its own syntax).
    @Test func everyHumanOutputUsesTheTable() {
        let name = "x" + Self.hostile + "y"
        let outputs: [(String, String)] = [
            ("html", HTML.visible(name).markup),
            ("html name", HTML.name(Array(name.utf8)).markup),
            ("markdown", MarkdownEscaping.cell(name, limit: 10_000)),
            ("github data", GitHubAnnotationsWriter.escapeData(name)),
            ("github property", GitHubAnnotationsWriter.escapeProperty(name)),
            (
                "terminal table",
                {
                    var table = TextTable([.left])
                    table.add([name])
                    return table.lines().joined()
                }()
            ),
        ]
        for (output, text) in outputs {
            #expect(!text.unicodeScalars.contains(where: VisibleText.isReplaced), "\(output)")
        }
    }

    /// Whole documents with hostile names and messages: nothing of the table but their own line breaks.
    @Test(arguments: [ReportFormat.markdown, .github, .junit])
    func documentsForPeopleHoldNoScalarOfTheTable(_ format: ReportFormat) throws {
        let text = String(decoding: try FindingsReport.rendered(format), as: UTF8.self)
        let found = text.unicodeScalars.filter { $0 != "\n" && VisibleText.isReplaced($0) }
        #expect(found.isEmpty, "\(found.map { String($0.value, radix: 16) })")
    }
}
