import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// Renders a report as one self-contained HTML page: inline CSS, inline SVG, one inline script allowed by
/// its hash, no external URL. Everything essential reads without JavaScript. The output depends only on
/// the report (no clock, no locale), so the same report always gives the same bytes.
public struct HTMLReportWriter: Sendable {
    /// The gates the verdict at the top is stated against.
    public let gates: AuditGates

    public init(gates: AuditGates = AuditGates()) { self.gates = gates }

    public func render(_ report: Report) -> String {
        let sections = HTMLSections(report: report)
        var page = HTMLPieces.pageStart(
            title: sections.pageTitle, contentSecurityPolicy: Self.contentSecurityPolicy,
            generator: report.tool.name + " " + report.tool.version, css: ReportStyle.css + "\n" + TreemapStyle.css)
        page += sections.masthead()
        page += "<main class=\"wrap\">\n"
        page += sections.verdict(gates)
        page += sections.summary()
        // Two halves side by side: at a million files the treemap and the tables each read every entry.
        page += SideBySide.values(2) { half in
            let tables = ReportTablesHTML(report: report)
            return half == 0
                ? ContainerTreemapHTML(report: report).render()
                    + FindingsHTML(findings: report.findings, baseline: report.baseline).render()
                    + GroupsAndBudgetsHTML(report: report).render() + ContainerSectionHTML(report: report).render()
                    + LocationChart(totals: report.inventory.totals).render()
                    + BackupChart(inventory: report.inventory).render()
                : DirectoryTreeHTML(inventory: report.inventory).render() + tables.largestFiles()
                    + tables.largestFolders() + tables.kinds() + tables.issues()
        }.joined()
        page += "</main>\n"
        page += sections.footer()
        page += "<script>\(ReportStyle.script)</script>\n</body>\n</html>\n"
        return PhoneTables.label(page).markup
    }

    /// No loads of any kind; inline style (needed for the page's own CSS and bar widths); the one inline
    /// script by its SHA-256 only. `base-uri` and `form-action` do not fall back to `default-src`.
    static var contentSecurityPolicy: HTML {
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src '\(scriptHashSource)'; "
            + "base-uri 'none'; form-action 'none'"
    }

    /// `sha256-<base64>` of the script text exactly as it appears between `<script>` and `</script>`.
    static var scriptHashSource: String { "sha256-" + Digests.sha256Base64(Array(ReportStyle.script.markup.utf8)) }
}
