import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// "Where the bytes are": the container as a treemap, each tile's area its allocated bytes (the report's own
/// figure, so the tiles add up to the on-disk total), a file coloured by its kind of content, faded or striped when
/// not backed up, outlined when a finding is about it. A folder's tile opens its own picture or its list.
struct ContainerTreemapHTML {
    let report: Report

    func render() -> HTML {
        let inventory = report.inventory
        var html = HTMLPieces.sectionStart(
            id: "map", title: "Where the bytes are",
            lead:
                "Each tile's area is its size on disk; the tiles add up to the container's total. Select a folder to open it; "
                + "the path above the picture leads back. Tap, hover or focus a tile for its path and size."
        )
        let layout = inventory.entries.isEmpty ? nil : TreemapLayout(inventory)
        guard let layout, !layout.views.isEmpty else {
            return html + "<p class=\"muted\">Nothing in the container occupies space on disk but its folders.</p>\n"
                + HTMLPieces.sectionEnd
        }
        let marks = FindingMarks(findings: report.findings, inventory: inventory)
        let svg = TreemapSVG(
            layout: layout, source: inventory, idPrefix: "map", rootName: "Container root", shareOf: "of the container",
            look: { look($0, marks: marks) })
        html += TreemapStyle.definitions + svg.render(label: "Treemap of sizes on disk")
        html += "<p class=\"tm-cap\" aria-live=\"polite\">Tap a tile for its path and size.</p>\n"
        html += legend(inventory)
        return html + HTMLPieces.sectionEnd
    }

    private func look(_ index: Int32, marks: FindingMarks) -> TreemapLook {
        let entry = report.inventory.entries[Int(index)]
        var classes = entry.isDirectory ? [] : [TreemapStyle.kindClass(entry.kind)]
        if let backup = TreemapStyle.backupClass(entry.backup) { classes.append(backup) }
        var details = [Self.locationText(index, in: report.inventory) + " · " + Self.backupText(entry.backup)]
        if let mark = marks.mark(index) {
            if let outline = TreemapStyle.severityClass(mark.severity) { classes.append(outline) }
            details.append(Plural.count(mark.count, "finding") + " about it, the worst \(mark.severity.rawValue)")
        }
        return TreemapLook(
            classes: classes.joined(separator: " "), details: details, hatched: entry.backup == .excluded)
    }

    /// The location a folder's tile or row names. `Library` holds several locations (Application Support, Caches,
    /// Preferences and the rest of Library), so it names none rather than read "Library (other)"; the same for the
    /// root. Everything else names its own.
    static func locationText(_ index: Int32, in inventory: Inventory) -> String {
        let entry = inventory.entries[Int(index)]
        guard entry.isDirectory else { return entry.location.title }
        let path = inventory.path(index)
        return path.isEmpty || path.elementsEqual("Library".utf8) ? "several locations" : entry.location.title
    }

    /// The state in words of its own: the figures' names ("Excluded by iOS") are kept for the totals they name.
    static func backupText(_ state: BackupState) -> String {
        switch state {
        case .included: "backed up"
        case .excluded: "excluded from backup by the app"
        case .excludedBySystem: "never backed up by iOS"
        case .unknown: "backup not known (the export may have dropped the flags)"
        }
    }

    /// The kinds of content present, then the backup and finding marks.
    private func legend(_ inventory: Inventory) -> HTML {
        // Kinds by raw value first: hashing a family's name for each of a million files would take 30 ms.
        var kinds = [Bool](repeating: false, count: Int(UInt8.max) + 1)
        for entry in inventory.entries where !entry.isDirectory { kinds[Int(entry.kind.rawValue)] = true }
        let present = Set(ContentKind.allCases.filter { kinds[Int($0.rawValue)] }.map(\.family))
        var html: HTML = "<p class=\"tm-legend\">"
        for (family, colour, title) in TreemapStyle.kinds where present.contains(family) {
            html += "<span><span class=\"tm-key\" style=\"background:\(colour)\"></span>\(title)</span>"
        }
        html += "<span><span class=\"tm-key\"></span>other files</span>"
        html += "<span><span class=\"tm-key tm-f\"></span>a folder, its name on top</span>"
        html += "<span><span class=\"tm-key tm-d\"></span>a folder too small to open here</span>"
        html += "<span><span class=\"tm-key b-x\"></span>faded: iOS never backs it up</span>"
        html += "<span><span class=\"tm-key b-a\"></span>striped: the app excluded it from backup</span>"
        html += "<span><span class=\"tm-key sv-error\"></span>outlined: an error is about it</span>"
        html += "<span><span class=\"tm-key sv-warning\"></span>a warning</span>"
        return html + "</p>\n"
    }
}

extension Inventory: TreemapSource {
    public func parent(_ node: Int32) -> Int32 { entries[Int(node)].parent }

    public func isFolder(_ node: Int32) -> Bool { entries[Int(node)].isDirectory }

    /// A folder's total from `directoryTotals`; a file's own blocks without a dictionary lookup (most children are files).
    public func bytes(_ node: Int32) -> Int64 {
        let entry = entries[Int(node)]
        if entry.isDirectory, let total = directoryTotals[node] { return total.allocatedBytes }
        return entry.countsBytes ? entry.allocatedBytes : 0
    }
}
