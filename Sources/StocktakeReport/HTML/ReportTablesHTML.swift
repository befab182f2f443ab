import StocktakeModel
import StocktakeRendering

/// The list sections: largest files, kinds of content, and what could not be read. Each is a top list or
/// an aggregate, so the page stays small whatever the size of the container.
struct ReportTablesHTML {
    let report: Report

    static let largestFileLimit = 200
    static let largestFolderLimit = 50
    static let issueLimit = 500

    private var inventory: Inventory { report.inventory }

    func largestFiles() -> HTML {
        let files = report.largestFiles(limit: Self.largestFileLimit)
        var html = HTMLPieces.sectionStart(
            id: "largest-files", title: "Largest files",
            lead: "The \(HTMLFormatting.grouped(files.count)) largest files by allocated size"
                + (files.count == Self.largestFileLimit ? " (the JSON report lists every file)." : "."))
        guard !files.isEmpty else { return html + "<p class=\"muted\">No files.</p>\n" + HTMLPieces.sectionEnd }
        html += "<div class=\"scroll\"><table data-sortable>\n<thead><tr><th data-type=\"text\">Path</th>"
        html += "<th data-type=\"text\">Location</th><th data-type=\"text\">Kind</th><th data-type=\"text\">Backup</th>"
        html += "<th class=\"num\" data-type=\"number\" aria-sort=\"descending\">Allocated</th>"
        html += "<th class=\"num\" data-type=\"number\">Apparent</th></tr></thead>\n<tbody>\n"
        for index in files {
            let entry = inventory.entries[Int(index)]
            html += "<tr><td class=\"path\">\(path: inventory.path(index))\(tags(entry))</td>"
            html +=
                "<td class=\"nowrap\" data-value=\"\(entry.location.title)\">\(HTMLPieces.swatch(ReportPalette.colour(entry.location)))"
            html += "\(entry.location.title)</td>"
            html += "<td>\(entry.type == .file ? entry.kind.name : entry.type.name)</td>"
            html += "<td class=\"nowrap\" data-value=\"\(entry.backup.label)\" title=\"\(entry.backup.rawValue), "
            html += "evidence: \(entry.evidence.rawValue)\">\(HTMLPieces.swatch(ReportPalette.colour(entry.backup)))"
            html += "\(entry.backup.label)</td>"
            html += HTMLPieces.sizeCell(entry.allocatedBytes) + HTMLPieces.sizeCell(entry.apparentBytes) + "</tr>\n"
        }
        html += "</tbody>\n</table></div>\n"
        html +=
            "<p class=\"note\">Column headers sort the table when scripts run; the order above is by allocated size.</p>\n"
        return html + HTMLPieces.sectionEnd
    }

    /// A flat list of the heaviest folders (the tree shows where they sit; this shows them side by side).
    func largestFolders() -> HTML {
        let folders = report.largestDirectories(limit: Self.largestFolderLimit)
        var html = HTMLPieces.sectionStart(
            id: "largest-folders", title: "Largest folders",
            lead: "Folders by the allocated size of everything beneath them; a folder includes its subfolders.")
        guard !folders.isEmpty else { return html + "<p class=\"muted\">No folders.</p>\n" + HTMLPieces.sectionEnd }
        html += "<div class=\"scroll\"><table data-sortable>\n<thead><tr><th data-type=\"text\">Path</th>"
        html += "<th data-type=\"text\">Location</th><th class=\"num\" data-type=\"number\">Files</th>"
        html += "<th class=\"num\" data-type=\"number\" aria-sort=\"descending\">Allocated</th></tr></thead>\n<tbody>\n"
        for index in folders {
            let entry = inventory.entries[Int(index)]
            let total = inventory.directoryTotals[index] ?? .zero
            html += "<tr><td class=\"path\">\(path: inventory.path(index))\(tags(entry))</td>"
            html +=
                "<td class=\"nowrap\" data-value=\"\(entry.location.title)\">\(HTMLPieces.swatch(ReportPalette.colour(entry.location)))"
            html +=
                "\(entry.location.title)</td>" + HTMLPieces.countCell(total.files)
                + HTMLPieces.sizeCell(total.allocatedBytes) + "</tr>\n"
        }
        return html + "</tbody>\n</table></div>\n" + HTMLPieces.sectionEnd
    }

    private func tags(_ entry: Entry) -> HTML {
        var tags: [String] = []
        if entry.flags.contains(.systemManaged) { tags.append("system-managed") }
        if entry.flags.contains(.hardLinked) { tags.append("hard link") }
        if entry.flags.contains(.sparse) { tags.append("sparse") }
        if entry.flags.contains(.unreadable) { tags.append("unreadable") }
        return tags.map { "<span class=\"tag\">\($0)</span>" as HTML }.joined()
    }

    func kinds() -> HTML {
        let kinds = report.kinds
        var html = HTMLPieces.sectionStart(
            id: "kinds", title: "Kinds of content",
            lead: "Regular files by what they hold, recognised from their first bytes, name or place.")
        guard !kinds.isEmpty else { return html + "<p class=\"muted\">No files.</p>\n" + HTMLPieces.sectionEnd }
        // Families in order of their size, kinds inside each family in the order `kinds` gives (largest first).
        var families: [String: SizeTotal] = [:]
        for item in kinds { families[item.kind.family, default: .zero].add(item.total) }
        let familyOrder = families.sorted { ($0.value.allocatedBytes, $1.key) > ($1.value.allocatedBytes, $0.key) }
        html += "<div class=\"scroll\"><table>\n<thead><tr><th>Family / kind</th><th class=\"num\">Files</th>"
        html += "<th class=\"num\">Apparent</th><th class=\"num\">Allocated</th></tr></thead>\n<tbody>\n"
        for (family, total) in familyOrder {
            html += "<tr class=\"group\"><td>\(family)</td>" + HTMLPieces.countCell(total.files)
            html += HTMLPieces.sizeCell(total.apparentBytes) + HTMLPieces.sizeCell(total.allocatedBytes) + "</tr>\n"
            for item in kinds where item.kind.family == family {
                html += "<tr><td class=\"sub\">\(item.kind.name)</td>" + HTMLPieces.countCell(item.total.files)
                html +=
                    HTMLPieces.sizeCell(item.total.apparentBytes) + HTMLPieces.sizeCell(item.total.allocatedBytes)
                    + "</tr>\n"
            }
        }
        return html + "</tbody>\n</table></div>\n" + HTMLPieces.sectionEnd
    }

    func issues() -> HTML {
        let issues = report.issues
        var html = HTMLPieces.sectionStart(id: "issues", title: "What could not be read")
        guard !issues.isEmpty else {
            return html + "<p class=\"muted\">Everything in the container could be read.</p>\n" + HTMLPieces.sectionEnd
        }
        html +=
            "<p class=\"lead\">\(Plural.count(issues.count, "entry", number: HTMLFormatting.grouped(issues.count))) "
        let sizesMissing = issues.contains { $0.reason.mayHideSize }
        html +=
            !sizesMissing
            ? "could not be read completely; every size is in the totals.</p>\n"
            : issues.count == 1
                ? "could not be read completely; its size may be missing from the totals.</p>\n"
                : "could not be read completely; their sizes may be missing from the totals.</p>\n"
        html += "<div class=\"scroll\"><table data-sortable>\n<thead><tr><th data-type=\"text\">Path</th>"
        html += "<th data-type=\"text\">Reason</th><th data-type=\"text\">Detail</th></tr></thead>\n<tbody>\n"
        for issue in issues.prefix(Self.issueLimit) {
            let path = issue.path.isEmpty ? "<span class=\"muted\">(container root)</span>" : HTML.path(issue.path)
            html += "<tr><td class=\"path\">\(path)</td><td>\(issue.reason.rawValue)</td>"
            html += "<td>\(issue.detail)</td></tr>\n"
        }
        html += "</tbody>\n</table></div>\n"
        if issues.count > Self.issueLimit {
            html +=
                "<p class=\"note\">\(HTMLFormatting.grouped(issues.count - Self.issueLimit)) more are listed in the JSON report.</p>\n"
        }
        return html + HTMLPieces.sectionEnd
    }
}
