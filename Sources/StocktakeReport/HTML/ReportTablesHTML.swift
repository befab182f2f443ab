import StocktakeModel
import StocktakeRendering

/// The list sections: largest files, kinds of content, and what could not be read. Each is a top list or
/// an aggregate, so the page stays small whatever the size of the container.
struct ReportTablesHTML {
    let report: Report

    static let largestFileLimit = 200
    static let largestFolderLimit = 50

    private var inventory: Inventory { report.inventory }

    func largestFiles() -> HTML {
        let files = report.largestFiles(limit: Self.largestFileLimit)
        let all = report.inventory.totals.appData.files
        let lead =
            files.count < all || all == 0
            ? "The \(HTMLFormatting.grouped(files.count)) largest files by allocated size (the JSON report lists every file)."
            : "All \(HTMLFormatting.count(files.count, "file")), largest first."
        var html = HTMLPieces.sectionStart(id: "largest-files", title: "Largest files", lead: lead)
        guard !files.isEmpty else { return html + "<p class=\"muted\">No files.</p>\n" + HTMLPieces.sectionEnd }
        var head: HTML = "<thead><tr><th data-type=\"text\">Path</th>"
        head += "<th data-type=\"text\">Location</th><th data-type=\"text\">Kind</th><th data-type=\"text\">Backup</th>"
        head += "<th class=\"num\" data-type=\"number\" aria-sort=\"descending\">Allocated</th>"
        head += "<th class=\"num\" data-type=\"number\">Apparent</th></tr></thead>"
        let rows = files.map { index -> HTML in
            let entry = inventory.entries[Int(index)]
            var html: HTML = "<tr><td class=\"path\">\(path: inventory.path(index))\(tags(entry))</td>"
            html +=
                "<td class=\"nowrap\" data-value=\"\(entry.location.title)\">\(HTMLPieces.swatch(ReportPalette.colour(entry.location)))"
            html += "\(entry.location.title)</td>"
            html += "<td>\(entry.type == .file ? entry.kind.name : entry.type.name)</td>"
            html += "<td class=\"nowrap\" data-value=\"\(entry.backup.label)\" title=\"\(entry.backup.rawValue), "
            html += "evidence: \(entry.evidence.rawValue)\">\(HTMLPieces.swatch(ReportPalette.colour(entry.backup)))"
            html += "\(entry.backup.label)</td>"
            return html + HTMLPieces.sizeCell(entry.allocatedBytes) + HTMLPieces.sizeCell(entry.apparentBytes)
                + "</tr>\n"
        }
        html += ShortTable.render(open: "<table data-sortable>", head: head, rows: rows, noun: "file")
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
        var head: HTML = "<thead><tr><th data-type=\"text\">Path</th>"
        head += "<th data-type=\"text\">Location</th><th class=\"num\" data-type=\"number\">Files</th>"
        head += "<th class=\"num\" data-type=\"number\" aria-sort=\"descending\">Allocated</th></tr></thead>"
        let rows = folders.map { index -> HTML in
            let entry = inventory.entries[Int(index)]
            let total = inventory.directoryTotals[index] ?? .zero
            let location = ContainerTreemapHTML.locationText(index, in: inventory)
            var html: HTML = "<tr><td class=\"path\">\(path: inventory.path(index))\(tags(entry))</td>"
            html += "<td class=\"nowrap\" data-value=\"\(location)\">"
            if location == entry.location.title { html += HTMLPieces.swatch(ReportPalette.colour(entry.location)) }
            return html + "\(location)</td>" + HTMLPieces.countCell(total.files)
                + HTMLPieces.sizeCell(total.allocatedBytes) + "</tr>\n"
        }
        html += ShortTable.render(open: "<table data-sortable>", head: head, rows: rows, noun: "folder")
        return html + HTMLPieces.sectionEnd
    }

    private static let tagged: [(EntryFlags, String)] = [
        (.systemManaged, "system-managed"), (.hardLinked, "hard link"), (.sparse, "sparse"),
        (.unreadable, "unreadable"),
    ]

    private func tags(_ entry: Entry) -> HTML {
        Self.tagged.filter { entry.flags.contains($0.0) }.map { "<span class=\"tag\">\($0.1)</span>" as HTML }.joined()
    }

    func kinds() -> HTML {
        let kinds = report.kinds
        let html = HTMLPieces.sectionStart(
            id: "kinds", title: "Kinds of content",
            lead: "Regular files by what they hold, recognised from their first bytes, name or place.")
        guard !kinds.isEmpty else { return html + "<p class=\"muted\">No files.</p>\n" + HTMLPieces.sectionEnd }
        // Families in order of their size, kinds inside each family in the order `kinds` gives (largest first).
        var families: [String: SizeTotal] = [:]
        for item in kinds { families[item.kind.family, default: .zero].add(item.total) }
        let familyOrder = families.sorted { ($0.value.allocatedBytes, $1.key) > ($1.value.allocatedBytes, $0.key) }
        let head: HTML =
            "<thead><tr><th>Family / kind</th><th class=\"num\">Files</th><th class=\"num\">Apparent</th><th class=\"num\">Allocated</th></tr></thead>"
        var rows: [HTML] = []
        for (family, total) in familyOrder {
            rows.append("<tr class=\"group\"><td>\(family)</td>\(total.cells)</tr>\n")
            for item in kinds where item.kind.family == family {
                rows.append("<tr><td class=\"sub\">\(item.kind.name)</td>\(item.total.cells)</tr>\n")
            }
        }
        return html + ShortTable.render(open: "<table>", head: head, rows: rows, noun: "row") + HTMLPieces.sectionEnd
    }

    /// Paths listed per reason behind its disclosure; the JSON report lists every one.
    static let pathsPerReason = 100

    /// One row per reason with its count and first detail; the paths behind a disclosure, so 500 files that
    /// could not be read for one reason are one row, not 500.
    func issues() -> HTML {
        let issues = report.issues
        var html = HTMLPieces.sectionStart(id: "issues", title: "What could not be read")
        guard !issues.isEmpty else {
            return html + "<p class=\"muted\">Everything in the container could be read.</p>\n" + HTMLPieces.sectionEnd
        }
        html += "<p class=\"lead\">\(HTMLFormatting.count(issues.count, "entry")) "
        let sizes =
            !issues.contains { $0.reason.mayHideSize }
            ? "every size is in"
            : issues.count == 1 ? "its size may be missing from" : "their sizes may be missing from"
        html += "could not be read completely; \(sizes) the totals.</p>\n"
        var byReason: [ScanIssue.Reason: [ScanIssue]] = [:]
        for issue in issues { byReason[issue.reason, default: []].append(issue) }
        let reasons = byReason.sorted { ($0.value.count, $1.key.rawValue) > ($1.value.count, $0.key.rawValue) }
        var rows: HTML = .empty
        for (reason, members) in reasons {
            var row: HTML = "<tr><td>\(reason.rawValue)</td>" + HTMLPieces.countCell(members.count) + "<td>"
            if members.count == 1, let only = members.first {
                row += "\(path(only)): \(only.detail)"
            } else {
                row +=
                    "<details><summary>\(path(members[0])): \(members[0].detail)</summary><ul class=\"issue-paths\">\n"
                for issue in members.dropFirst().prefix(Self.pathsPerReason - 1) {
                    row += "<li>\(path(issue)): \(issue.detail)</li>\n"
                }
                row += "</ul>"
                if members.count > Self.pathsPerReason {
                    row +=
                        "<p class=\"note\">\(HTMLFormatting.grouped(members.count - Self.pathsPerReason)) more are listed in the JSON report.</p>"
                }
                row += "</details>"
            }
            rows += row + "</td></tr>\n"
        }
        let head: HTML = "<th>Reason</th><th class=\"num\">Entries</th><th>Paths</th>"
        return html + HTMLPieces.table(head: head, rows: rows) + HTMLPieces.sectionEnd
    }

    private func path(_ issue: ScanIssue) -> HTML {
        issue.path.isEmpty
            ? "<span class=\"muted\">(container root)</span>" : "<span class=\"path\">\(path: issue.path)</span>"
    }
}
