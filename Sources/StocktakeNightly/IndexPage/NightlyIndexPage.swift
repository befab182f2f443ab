import StocktakeHistory
import StocktakeModel
import StocktakeRendering

/// `Reports/index.html`, self-contained by `report.html`'s rules, with no script; output depends only on the input.
enum NightlyIndexPage {
    static func render(_ page: NightlyIndex) -> [UInt8] {
        let anchors = page.apps.indices.map { "app-\($0 + 1)" }
        var html = HTMLPieces.pageStart(
            title: "Stocktake nightly", contentSecurityPolicy: contentSecurityPolicy, generator: nil,
            css: IndexStyle.css)
        html +=
            masthead(page) + "<main class=\"wrap\">\n" + verdict(page, anchors: anchors)
            + overview(page, anchors: anchors)
        for (app, anchor) in zip(page.apps, anchors) { html += AppSectionHTML(app: app, anchor: anchor).render() }
        html += failures(page.failures, anyUnchanged: !page.unchanged.isEmpty) + unchanged(page.unchanged)
        html += "</main>\n<footer class=\"wrap\">Sizes are allocated bytes (the blocks on disk), in decimal units "
        html +=
            "(a KB is a thousand bytes); hover a size for the exact byte count. The history lives in \(HistoryStore.fileName) "
        html +=
            "beside this page; <code>stocktake history &lt;bundle id&gt;</code> prints it.</footer>\n</body>\n</html>\n"
        return Array(PhoneTables.label(html).markup.utf8)
    }

    /// Inline style only. `base-uri` and `form-action` do not fall back to `default-src`.
    static let contentSecurityPolicy: HTML =
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    private static func masthead(_ page: NightlyIndex) -> HTML {
        let failing = page.apps.count { $0.latest?.status == .policyFailure }
        var html: HTML =
            "<header class=\"masthead\">\n<div class=\"wrap\">\n<p class=\"eyebrow\">Stocktake nightly</p>\n"
        html += "<h1>\(HTMLFormatting.count(page.apps.count, "app"))</h1>\n"
        html += "<p class=\"meta\">Generated \(visible: page.generatedAt) · "
        html += "\(HTMLFormatting.grouped(failing)) with a policy failure · "
        html += "\(HTMLFormatting.count(page.failures.count, "input")) not audited</p>\n"
        html += "<nav class=\"toc\" aria-label=\"Sections\"><a href=\"#apps\">Apps</a>"
        html += "<a href=\"#failures\">Failed inputs (\(HTMLFormatting.grouped(page.failures.count)))</a></nav>\n"
        return html + "</div>\n</header>\n"
    }

    /// Failed when an app's latest run failed its policy gate or an input could not be audited.
    private static func verdict(_ page: NightlyIndex, anchors: [String]) -> HTML {
        let failing = zip(page.apps, anchors).filter { $0.0.latest?.status == .policyFailure }
        let failed = !failing.isEmpty || !page.failures.isEmpty
        let grouped = { (count: Int, noun: String) in HTMLFormatting.count(count, noun) }
        var headline: HTML = "\(grouped(failing.count, "app")) of \(HTMLFormatting.grouped(page.apps.count)) "
        headline += "failed the policy gate (<code>--fail-on</code>, budgets) on its latest run; "
        headline += "\(grouped(page.failures.count, "input")) could not be audited."
        var lines: [HTML] = failing.prefix(3).map { app, anchor in
            let section = AppSectionHTML(app: app, anchor: anchor)
            let counts = app.latest.map { AppSectionHTML.findingCounts($0, omittingZeros: true) } ?? "none"
            return "<a href=\"#\(anchor)\">\(section.name)</a>: \(counts)"
        }
        if failing.count > 3 { lines.append("… and \(grouped(failing.count - 3, "more app")), in the table below") }
        if let first = page.failures.first {
            lines.append(
                "<a href=\"#failures\">Not audited</a>: <span class=\"path\">\(visible: first.input)</span>"
                    + (page.failures.count > 1 ? " and \(HTMLFormatting.grouped(page.failures.count - 1)) more" : ""))
        }
        return VerdictHTML.render(failed ? .failed : .passed, headline: headline, lines: lines)
    }

    private static func overview(_ page: NightlyIndex, anchors: [String]) -> HTML {
        var html = HTMLPieces.sectionStart(
            id: "apps", title: "Apps",
            lead: "The latest run of every app, and how its size on disk moved since the run before.")
        guard !page.apps.isEmpty else { return html + "<p>No apps audited yet.</p>\n" + HTMLPieces.sectionEnd }
        html +=
            "<div class=\"scroll\"><table>\n<thead><tr><th>App</th><th>Latest run</th><th class=\"num\">\(Figure.onDisk.name)</th>"
        html += "<th class=\"num\">Change</th><th class=\"num\">Documents &amp; Data</th>"
        html += "<th class=\"num\">Backed up</th><th>Findings</th><th>Status</th></tr></thead>\n<tbody>\n"
        for (app, anchor) in zip(page.apps, anchors) {
            let section = AppSectionHTML(app: app, anchor: anchor)
            html += "<tr><td class=\"app-name\"><a href=\"#\(anchor)\">\(section.name)</a></td>"
            guard let latest = app.latest else {
                html += "<td colspan=\"7\" class=\"muted\">No runs recorded.</td></tr>\n"
                continue
            }
            html += "<td class=\"nowrap\">\(visible: latest.runID)</td>"
            html += HTMLPieces.sizeCell(latest.onDisk.allocatedBytes)
            html +=
                "<td class=\"num\">\(app.previous.map { AppSectionHTML.change(latest.onDiskChange(since: $0)) } ?? "<span class=\"muted\">first run</span>")</td>"
            html += HTMLPieces.sizeCell(latest.documentsAndData.allocatedBytes)
            html += HTMLPieces.sizeCell(latest.backedUpBytes)
            html +=
                "<td class=\"nowrap\">\(AppSectionHTML.findingCounts(latest, omittingZeros: true))</td><td>\(AppSectionHTML.statusTag(latest.status))</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n" + HTMLPieces.sectionEnd
    }

    private static func unchanged(_ entries: [NightlyOutcome.Skipped]) -> HTML {
        guard !entries.isEmpty else { return .empty }
        var html = HTMLPieces.sectionStart(
            id: "unchanged", title: "Not audited again",
            lead:
                "Inbox entries unchanged since an earlier run audited them: the same files, sizes and times, the same policy."
        )
        html += "<ul>\n"
        for entry in entries {
            html += "<li><span class=\"path\">\(visible: entry.input)</span>: audited into "
            html += "<a href=\"\(RelativeHref.encode(entry.run + "/report.html"))\">\(visible: entry.run)</a></li>\n"
        }
        return html + "</ul>\n" + HTMLPieces.sectionEnd
    }

    private static func failures(_ failures: [NightlyOutcome.Failure], anyUnchanged: Bool) -> HTML {
        let html = HTMLPieces.sectionStart(
            id: "failures", title: "Failed inputs",
            lead: "Inbox entries the nightly job could not audit (not a container, unreadable, …). They have no report."
        )
        guard !failures.isEmpty else {
            return html + (anyUnchanged ? "<p>None.</p>\n" : "<p>None: every input was audited.</p>\n")
                + HTMLPieces.sectionEnd
        }
        let rows = failures.map { failure -> HTML in
            // Line by line: the message keeps its lines while the controls in them are shown as symbols.
            let message = failure.message.split(separator: "\n", omittingEmptySubsequences: false)
                .map { HTML.visible(String($0)) }.joined(separator: "\n")
            return "<tr><td class=\"path\">\(visible: failure.input)</td><td class=\"message\">\(message)</td></tr>\n"
        }
        return html + HTMLPieces.table(head: "<th>Input</th><th>Why</th>", rows: rows.joined()) + HTMLPieces.sectionEnd
    }
}
