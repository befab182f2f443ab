import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeReport
import TestSupport

/// The synthetic report with findings: what the policy finds in the synthetic container (Documents
/// exposed), plus hand-made findings whose paths and messages attack each output format.
enum FindingsReport {
    /// A message that tries to end a GitHub command and start another, break a Markdown table, inject HTML
    /// and XML, mention a user, and carries characters XML 1.0 cannot hold (U+0001, U+FFFE).
    static let hostileMessage =
        "50% done, see: here\r\n::error::pwned | *bold* _it_ `code` <b>x</b> ]]> @octocat \u{1}\u{FFFE} [link](http://x) $x$"
    static let oddPath = "Documents/#frag ?q=%41 ünï.txt"

    static let hostileFindings: [Finding] = [
        finding(
            "documents-hidden-data", .error, "Documents/" + SyntheticContainer.quotedName, hostileMessage, bytes: 4096),
        finding(
            "documents-hidden-data", .warning, "Documents/" + SyntheticContainer.hostileImageName,
            "An image <script>x</script> -- here"),
        finding("tmp-leftovers", .note, oddPath, "A note, with: commas"),
        finding("documents-hidden-data", .warning, "Documents/" + SyntheticContainer.bidiName, "Reads backwards"),
        finding(
            "documents-hidden-data", .warning, "Documents/" + PathText.display(SyntheticContainer.nonUTF8Name),
            "Not UTF-8"),
        // A rule this version does not register, about the container root.
        finding("budget-exceeded", .error, "", "The container is over its 10 MB budget", bytes: 20_000_000),
    ]

    static func make() -> Report {
        let base = SyntheticReport.make()
        let policy = Policy().evaluate(PolicyContext(inventory: base.inventory, documentsExposed: true))
        let findings = (policy + hostileFindings).sorted { a, b in
            if a.path != b.path { return a.path.utf8.lexicographicallyPrecedes(b.path.utf8) }
            return (a.rule, a.fingerprint) < (b.rule, b.fingerprint)
        }
        return with(findings, base)
    }

    static func with(_ findings: [Finding], _ base: Report = SyntheticReport.make()) -> Report {
        Report(
            tool: base.tool, generatedAt: base.generatedAt, container: base.container, inventory: base.inventory,
            appBundle: base.appBundle, appGroups: base.appGroups, findings: findings)
    }

    static func finding(_ rule: String, _ severity: Severity, _ path: String, _ message: String, bytes: Int64? = nil)
        -> Finding
    {
        Finding(
            rule: rule, severity: severity, path: path, message: message, fix: "Fix it: move <it> & \"retry\".",
            fingerprint: Fingerprint.make(rule: rule, path: path, discriminator: message), bytes: bytes)
    }

    static func rendered(_ format: ReportFormat, _ report: Report = make()) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try format.render(report) { bytes.append(contentsOf: $0) }
        return bytes
    }
}
