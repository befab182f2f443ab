import StocktakeModel
import StocktakeRendering
import Testing

@testable import StocktakeReport

@Suite struct HTMLFormattingTests {
    @Test(arguments: [
        (Int64(0), "0 bytes"), (1, "1 byte"), (999, "999 bytes"), (1_000, "1.0 KB"), (1_549, "1.5 KB"),
        (1_550, "1.6 KB"),
        (99_949, "99.9 KB"), (99_950, "100 KB"), (999_499, "999 KB"), (999_500, "1.0 MB"), (12_345_678, "12.3 MB"),
        (123_456_789, "123 MB"), (4_000_000_000, "4.0 GB"), (1_234_567_890_123, "1.2 TB"), (Int64.max, "9.2 EB"),
        (-1_500, "-1.5 KB"), (Int64.min, "-9.2 EB"),
    ])
    func humanBytes(value: Int64, expected: String) {
        #expect(ByteCount.format(value) == expected)
    }

    @Test func exactBytesAreGrouped() {
        #expect(HTMLFormatting.exactBytes(0) == "0 bytes")
        #expect(HTMLFormatting.exactBytes(1) == "1 byte")
        #expect(HTMLFormatting.exactBytes(1_234_567) == "1,234,567 bytes")
        #expect(HTMLFormatting.grouped(-1_000) == "-1,000")
        #expect(HTMLFormatting.grouped(999) == "999")
    }

    @Test func percentages() {
        #expect(Percent.share(1, of: 3) == "33.3%")
        #expect(Percent.share(0, of: 3) == "0%")
        #expect(Percent.share(1, of: 1_000_000) == "<0.1%")
        #expect(Percent.share(7, of: 7) == "100.0%")
        #expect(Percent.tenthsOfShare(Int64.max, of: 1) == 1000)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"), (951_782_400, "2000-02-29T00:00:00Z"), (1_795_262_400.9, "2026-11-21T12:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"), (-62_135_596_799, "0001-01-01T00:00:01Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
    ])
    func utcDates(seconds: Double, expected: String) {
        #expect(ReportDates.utc(secondsSince1970: seconds) == expected)
    }

    @Test func datesOutOfRangeAreRefused() {
        #expect(ReportDates.utc(secondsSince1970: .nan) == nil)
        #expect(ReportDates.utc(secondsSince1970: .infinity) == nil)
        #expect(ReportDates.utc(secondsSince1970: 1e300) == nil)
        #expect(ReportDates.utc(secondsSince1970: -1e300) == nil)
    }

    @Test func escapingCoversTextAndAttributes() {
        #expect(
            HTML.text("<a href=\"x\" title='y'>&amp;</a>").markup
                == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;")
        #expect(HTML.text("nul\u{0}bell\u{7}c1\u{85}").markup == "nul\u{FFFD}bell\u{FFFD}c1\u{FFFD}")
        #expect(HTML.text("line\r\nnext\tend").markup == "line\n\nnext\tend")
    }

    @Test func namesShowControlsAndHideBidiOverrides() {
        #expect(HTML.name(Array("a\nb\u{7F}".utf8)).markup == "a\u{240A}b\u{2421}")
        #expect(HTML.name(Array("invoice\u{202E}fdp.exe".utf8)).markup == "invoice\u{FFFD}fdp.exe")
        #expect(HTML.name([0x66, 0xFF, 0x3C]).markup == "f\u{FFFD}&lt;")
        #expect(HTML.path(Array("a/<b>/c".utf8)).markup == "a/<wbr>&lt;b&gt;/<wbr>c")
    }
}
