import Foundation
import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

@Suite struct JUnitReportTests {
    static let xml = JUnitReportWriter().render(FindingsReport.make())

    @Test(
        .enabled(
            if: OutsideTools.has("xmllint") || OutsideTools.required,
            "xmllint not found (apt-get install libxml2-utils); \(OutsideTools.requirementHint)"),
        .enabled(if: ExternalTools.schemasEnabled, ExternalTools.schemasHint))
    func validAgainstJenkinsSchema() throws {
        try #require(OutsideTools.has("xmllint"), "xmllint is not installed")
        let schema = try ExternalTools.schema("junit-10.xsd")
        for xml in [Self.xml, JUnitReportWriter().render(FindingsReport.with([]))] {
            let file = try ExternalTools.temporaryFile("report.junit.xml", Array(xml.utf8))
            let result = try StocktakeProcess.runCommand(["xmllint", "--noout", "--schema", schema, file])
            #expect(result.status == 0, "junit-10.xsd validation failed: \(result.stderr)")
        }
    }

    @Test(
        .enabled(
            if: OutsideTools.has("xmllint") || OutsideTools.required,
            "xmllint not found (apt-get install libxml2-utils); \(OutsideTools.requirementHint)"))
    func hostileMessageSurvivesAnXMLParser() throws {
        try #require(OutsideTools.has("xmllint"), "xmllint is not installed")
        let file = try ExternalTools.temporaryFile("report.junit.xml", Array(Self.xml.utf8))
        let query =
            "string(//testcase[@name='documents-hidden-data']/failure[@type='error'][contains(@message, 'pwned')]/@message)"
        let result = try StocktakeProcess.runCommand(["xmllint", "--xpath", query, file])
        #expect(result.status == 0, "\(result.stderr)")
        // What XML 1.0 cannot carry (U+0001, U+FFFE) became U+FFFD; everything else, CR and LF included, is intact.
        let expected = FindingsReport.hostileMessage
            .replacingOccurrences(of: "\u{1}", with: "\u{FFFD}").replacingOccurrences(of: "\u{FFFE}", with: "\u{FFFD}")
        #expect(result.stdout.dropLast() == expected[...], "xmllint prints the value and a newline")
    }

    @Test func oneTestCasePerRuleAndCountsAddUp() throws {
        let report = FindingsReport.make()
        // Every registered rule, plus any rule id only a finding names.
        let catalogSize = Set(RuleRegistry.all.map { $0.description.id } + report.findings.map(\.rule)).count
        let failingRules = Set(report.findings.filter { $0.severity >= .warning }.map(\.rule))
        let counts = "tests=\"\(catalogSize)\" failures=\"\(failingRules.count)\" errors=\"0\""
        #expect(Self.xml.contains("<testsuites name=\"stocktake\" \(counts)>"))
        #expect(
            Self.xml.contains(
                "<testsuite name=\"stocktake\" \(counts) skipped=\"0\" timestamp=\"2026-11-21T12:00:00Z\">"))
        #expect(Self.xml.components(separatedBy: "<testcase ").count - 1 == catalogSize)
        for rule in RuleRegistry.all {
            let id = rule.description.id
            #expect(Self.xml.contains("<testcase classname=\"stocktake.\(id)\" name=\"\(id)\" time=\"0\""))
        }
        let failures = report.findings.count { $0.severity >= .warning }
        #expect(Self.xml.components(separatedBy: "<failure ").count - 1 == failures, "a failure per warning or error")
    }

    @Test func notesGoToSystemOutNotFailures() {
        #expect(
            Self.xml.contains("<system-out>note: Documents/#frag ?q=%41 ünï.txt: A note, with: commas</system-out>"))
        #expect(!Self.xml.contains("A note, with: commas\" type="), "a note is not a failure")
        let onlyNote = JUnitReportWriter().render(FindingsReport.with([FindingsReport.hostileFindings[2]]))
        #expect(onlyNote.contains("failures=\"0\""))
    }

    @Test func attributesAndTextAreEscaped() {
        #expect(
            Self.xml.contains(
                "message=\"50% done, see: here&#13;&#10;::error::pwned | *bold* _it_ `code` &lt;b&gt;x&lt;/b&gt; ]]&gt; @octocat \u{FFFD}\u{FFFD} [link](http://x) $x$\""
            ))
        #expect(
            Self.xml.contains(
                ">Documents/&lt;img src=x onerror=document.title='pwned'&gt;.jpg\nFix: Fix it: move &lt;it&gt; &amp; \"retry\".</failure>"
            ))
        #expect(
            Self.xml.contains(">Documents/a \"quoted\" &amp; 'single'␊line.txt (4,096 bytes)\n"),
            "a name's line break shows")
        #expect(Self.xml.contains(">Documents/invoice\u{FFFD}fdp.exe\n"), "a bidirectional override shows")
        #expect(!Self.xml.contains("<img") && !Self.xml.contains("<b>") && !Self.xml.contains("]]>"))
        #expect(!Self.xml.unicodeScalars.contains { $0.value == 1 || $0.value == 0xFFFE })
    }
}
