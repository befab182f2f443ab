import StocktakeModel
import StocktakeRendering

/// The folder tree with sizes, collapsible with `<details>` (no script needed). To stay small at a million
/// files it lists only folders holding a visible share of the total, at most `maximumNodes` of them, largest
/// first; everything else under a folder is summed in one "N files and M smaller folders" row.
struct DirectoryTreeHTML {
    let inventory: Inventory

    /// Folders under 1/200 (0.5%) of the total are summed, not listed.
    static let minimumShareDivisor: Int64 = 200
    static let maximumNodes = 1500
    /// Deeper folders are summed into their ancestor at this depth (hostile trees can be very deep).
    static let maximumDepth = 64
    /// Levels open when the page loads; deeper ones open on click.
    static let openDepth = 2
    /// Indentation stops growing here so deep paths stay readable.
    static let maximumIndent = 20

    private enum Step {
        case folder(Int32, depth: Int)
        case rest(files: Int, folders: Int, bytes: Int64, depth: Int)
        case close
    }

    private var total: Int64 { max(0, inventory.bytes(inventory.root)) }

    func render() -> HTML {
        guard !inventory.entries.isEmpty else {
            return HTMLPieces.sectionStart(id: "folders", title: "Folders")
                + "<p class=\"muted\">The container is empty.</p>\n"
                + HTMLPieces.sectionEnd
        }
        let threshold = max(1, total / Self.minimumShareDivisor)
        var html = HTMLPieces.sectionStart(
            id: "folders", title: "Folders",
            lead: "Each folder's size on disk with everything beneath it (folders' own blocks and transport artefacts "
                + "included, as du counts a folder), and the app's files in it. Listed: every folder of at least 0.5% of the container's "
                + "size on disk (\(ByteCount.format(threshold))), largest first; the rest are summed.")
        let (selected, qualifying) = selectFolders(threshold: threshold)
        html +=
            "<div class=\"tools\" id=\"tree-tools\" hidden><button type=\"button\" data-tree=\"open\">Expand all</button>"
        html += "<button type=\"button\" data-tree=\"close\">Collapse all</button></div>\n"
        html += "<div class=\"tree\">\n"
        var steps: [Step] = [.folder(inventory.root, depth: 0)]
        while let step = steps.popLast() {
            switch step {
            case .close:
                html += "</details>\n"
            case .rest(let files, let folders, let bytes, let depth):
                html += "<div class=\"t-row t-more\" style=\"--d:\(indent(depth))\"><span class=\"t-name\">"
                html += "\(restLabel(files: files, folders: folders))</span><span class=\"t-items\"></span>"
                html += "<span class=\"t-size\">\(HTMLPieces.size(bytes))</span>\(share(bytes))</div>\n"
            case .folder(let index, let depth):
                let (shown, rest) = split(index, selected: selected)
                let row = folderRow(index, depth: depth)
                if shown.isEmpty {
                    html += "<div class=\"t-row\(rootClass(index))\" style=\"--d:\(indent(depth))\">\(row)</div>\n"
                    continue
                }
                html += "<details\(depth < Self.openDepth ? " open" : "" as HTML)><summary class=\"t-row"
                html += "\(rootClass(index))\" style=\"--d:\(indent(depth))\">\(row)</summary>\n"
                steps.append(.close)
                if rest.files > 0 || rest.folders > 0 {
                    steps.append(.rest(files: rest.files, folders: rest.folders, bytes: rest.bytes, depth: depth + 1))
                }
                steps.append(contentsOf: shown.reversed().map { .folder($0, depth: depth + 1) })
            }
        }
        html += "</div>\n"
        if qualifying > selected.count {
            html +=
                "<p class=\"note\">\(HTMLFormatting.grouped(qualifying - selected.count)) more folders above the threshold "
            html += "are summed to keep the page small; the JSON report lists every folder.</p>\n"
        }
        return html + HTMLPieces.sectionEnd
    }

    /// The folders to list: the root plus the largest qualifying folders, parents always before children
    /// (a child is never larger than its parent, and ties go to the earlier one in path order).
    private func selectFolders(threshold: Int64) -> (selected: Set<Int32>, qualifying: Int) {
        // At most `minimumShareDivisor` qualifying folders per depth (they are disjoint), so this stays small.
        var candidates: [(bytes: Int64, order: Int, index: Int32)] = [(total, 0, inventory.root)]
        var pending: [(index: Int32, depth: Int)] = [(inventory.root, 0)]
        while let (index, depth) = pending.popLast() {
            guard depth < Self.maximumDepth else { continue }
            for child in inventory.children(index) where inventory.entries[Int(child)].isDirectory {
                let bytes = inventory.bytes(child)
                guard bytes >= threshold else { continue }
                candidates.append((bytes, candidates.count, child))
                pending.append((child, depth + 1))
            }
        }
        candidates.sort { ($0.bytes, -$0.order) > ($1.bytes, -$1.order) }
        return (Set(candidates.prefix(Self.maximumNodes).map(\.index)), candidates.count)
    }

    /// Listed child folders, largest first (ties in name order), and the sum of everything else.
    private func split(_ index: Int32, selected: Set<Int32>) -> (
        shown: [Int32], rest: (files: Int, folders: Int, bytes: Int64)
    ) {
        var shown: [(bytes: Int64, position: Int, index: Int32)] = []
        var rest = (files: 0, folders: 0, bytes: Int64(0))
        for (position, child) in inventory.children(index).enumerated() {
            let entry = inventory.entries[Int(child)]
            if selected.contains(child) {
                shown.append((inventory.bytes(child), position, child))
            } else {
                rest.bytes &+= inventory.bytes(child)
                if entry.isDirectory {
                    rest.folders += 1
                } else if !entry.flags.contains(.transportArtefact) {
                    rest.files += 1
                }
            }
        }
        shown.sort { ($0.bytes, -$0.position) > ($1.bytes, -$1.position) }
        return (shown.map(\.index), rest)
    }

    private func rootClass(_ index: Int32) -> HTML { index == inventory.root ? " t-root" : .empty }

    private func folderRow(_ index: Int32, depth: Int) -> HTML {
        let bytes = inventory.bytes(index)
        // The app's files anywhere beneath this folder (transport artefacts left out, as in every view).
        let beneath = inventory.directoryTotals[index]?.files ?? 0
        let name = index == inventory.root ? "Container root" : HTML.name(inventory.name(index))
        return "<span class=\"t-name\">\(name)</span>"
            + "<span class=\"t-items\">\(HTMLFormatting.count(beneath, "file"))</span>"
            + "<span class=\"t-size\">\(HTMLPieces.size(bytes))</span>\(share(bytes))"
    }

    private func share(_ bytes: Int64) -> HTML {
        let tenths = Percent.tenthsOfShare(bytes, of: total)
        return "<span class=\"t-share\"><span class=\"t-track\"><span class=\"t-fill\" style=\"width:"
            + "\(HTMLFormatting.decimal(tenths: tenths))%\"></span></span>\(HTMLPieces.percent(bytes, of: total))</span>"
    }

    private func restLabel(files: Int, folders: Int) -> String {
        var parts: [String] = []
        if files > 0 { parts.append(HTMLFormatting.count(files, "file")) }
        if folders > 0 { parts.append("\(HTMLFormatting.grouped(folders)) smaller \(Plural.noun(folders, "folder"))") }
        return parts.joined(separator: " and ")
    }

    private func indent(_ depth: Int) -> Int { min(depth, Self.maximumIndent) }
}
