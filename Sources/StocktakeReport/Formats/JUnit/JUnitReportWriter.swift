import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// Writes `report.junit.xml`, valid against Jenkins' `junit-10.xsd`: one suite "stocktake", one test case per rule
/// of the catalog (classname `stocktake.<id>`), a `<failure>` per finding at warning or error (type: its severity;
/// text: path, then the fix). Notes are neither failures nor skips (the rule ran): `<system-out>` lists them, visible
/// in CI without turning anything red. `failures` counts failing rules, as JUnit consumers do; nothing errs or skips.
/// Paths go through `VisibleText` (a line break in a name shows as ␊); messages, whose quoted names are already
/// visible, keep their line breaks as character references.
public struct JUnitReportWriter: Sendable {
    public init() {}

    public func render(_ report: Report) -> String {
        let catalog = RuleCatalog(findings: report.findings)
        let byRule = Dictionary(grouping: report.findings, by: \.rule)
        let failing = catalog.entries.count { rule in byRule[rule.id]?.contains { $0.severity >= .warning } ?? false }
        let counts = "tests=\"\(catalog.entries.count)\" failures=\"\(failing)\" errors=\"0\""
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"stocktake\" \(counts)>\n"
        xml +=
            "  <testsuite name=\"stocktake\" \(counts) skipped=\"0\" timestamp=\"\(ReportDates.iso8601(report.generatedAt))\">\n"
        xml += "    <properties>\n"
        xml += property("container", VisibleText.render(report.container.rootPath, as: .junit))
        if let bundleIdentifier = report.container.bundleIdentifier {
            xml += property("bundleIdentifier", VisibleText.render(bundleIdentifier, as: .junit))
        }
        xml += property("tool", "\(report.tool.name) \(report.tool.version)")
        xml += "    </properties>\n"
        for rule in catalog.entries { xml += testCase(rule, findings: byRule[rule.id] ?? []) }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private func property(_ name: String, _ value: String) -> String {
        "      <property name=\"\(XMLEscaping.attribute(name))\" value=\"\(XMLEscaping.attribute(value))\"/>\n"
    }

    private func testCase(_ rule: RuleDescription, findings: [Finding]) -> String {
        let open =
            "    <testcase classname=\"stocktake.\(XMLEscaping.attribute(rule.id))\" name=\"\(XMLEscaping.attribute(rule.id))\" time=\"0\""
        guard !findings.isEmpty else { return open + "/>\n" }
        var xml = open + ">\n"
        for finding in findings where finding.severity >= .warning {
            xml +=
                "      <failure message=\"\(XMLEscaping.attribute(finding.message))\" type=\"\(finding.severity.rawValue)\">"
            xml += XMLEscaping.text(failureText(finding)) + "</failure>\n"
        }
        let notes = findings.filter { $0.severity == .note }
        if !notes.isEmpty {
            let lines = notes.map { "note: \(shown($0.path)): \($0.message)" }
            xml += "      <system-out>" + XMLEscaping.text(lines.joined(separator: "\n")) + "</system-out>\n"
        }
        return xml + "    </testcase>\n"
    }

    private func failureText(_ finding: Finding) -> String {
        var text = shown(finding.path)
        if let bytes = finding.bytes { text += " (\(HTMLFormatting.exactBytes(bytes)))" }
        return text + "\nFix: " + finding.fix
    }

    /// A path as CI pages show it: what `VisibleText` replaces (a line break, a bidirectional override) made
    /// visible; "." for the container root.
    private func shown(_ path: String) -> String { path.isEmpty ? "." : VisibleText.render(path, as: .junit) }
}
