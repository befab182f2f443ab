import StocktakeModel
import StocktakeRendering

/// What was audited: the input, its layout, whose container it is, and every key of its metadata plists.
struct ContainerSectionHTML {
    let report: Report

    static func layoutTitle(_ layout: ContainerLayout) -> HTML {
        switch layout {
        case .xcappdata: "Xcode container package (.xcappdata)"
        case .simulator: "Simulator data container"
        case .dataContainer: "Data container (container-manager metadata; device or unknown origin)"
        case .bare: "Data container folder"
        case .deviceBackup: "Device backup (Manifest.db of a Finder, iTunes or idevicebackup2 backup)"
        }
    }

    static func sourceTitle(_ source: BundleIdentifierSource) -> HTML {
        switch source {
        case .option: "given with --bundle-id"
        case .appDataInfo: "from AppDataInfo.plist"
        case .containerMetadata: "from the container manager metadata plist"
        case .launchSnapshot: "from the app's launch snapshots"
        case .savedState: "from the app's saved application state"
        case .httpStorage: "from the app's folder in Library/HTTPStorages"
        case .cachesFolder: "from the app's own folder in Library/Caches"
        case .webKitFolder: "from the app's folder in Library/WebKit"
        case .preferencesFile: "from the name of the preferences file in Library/Preferences"
        case .ambiguous: "ambiguous: the clues name different apps"
        case .none: "not found"
        }
    }

    /// Clues that name another app than the one reported (all of them when ambiguous).
    private func disagreeingClues() -> HTML {
        let container = report.container
        let others = container.identityClues.filter { $0.identifier != container.bundleIdentifier }
        guard !others.isEmpty else { return .empty }
        // Where each clue was seen, not "from the app's …": a disagreeing clue may be another process's.
        let items = others.map { clue -> HTML in
            "<li><code>\(visible: clue.identifier)</code> <span class=\"muted\"><span class=\"path\">\(visible: clue.path)</span></span></li>"
        }
        let title = container.bundleIdentifier == nil ? "Clues" : "Clues that disagree"
        return fact(title, "<ul class=\"clues\">\(items.joined())</ul>")
    }

    func render() -> HTML {
        let container = report.container
        var html = HTMLPieces.sectionStart(id: "container", title: "Container")
        html += "<dl class=\"facts\">\n"
        html += fact("Input", "<span class=\"path\">\(visible: container.inputPath)</span>")
        html += fact("Container root", "<span class=\"path\">\(visible: container.rootPath)</span>")
        html += fact("Layout", Self.layoutTitle(container.layout))
        if let archive = container.archive {
            let packed = archive.compression == "none" ? archive.format : "\(archive.format), \(archive.compression)"
            let folder: HTML =
                archive.folder.isEmpty ? "its root" : "<span class=\"path\">\(visible: archive.folder)</span>"
            html += fact("Archive", "read in place (\(packed)), container at \(folder)")
        }
        if let device = container.device {
            let details = [device.model, device.osVersion.map { "iOS \($0)" }, device.udid ?? device.identifier]
                .compactMap { $0 }.joined(separator: ", ")
            html += fact(
                "Device",
                "copied from \(visible: device.name) (\(visible: details)) with <code>\(visible: device.copiedWith)</code>"
                    + " into a private temporary folder, removed after the audit")
        }
        if container.allocatedBytesEstimated {
            html += fact(
                "Allocated sizes", "estimated as the device's APFS allocates them (4 KiB blocks), not measured on disk")
        }
        let identifier: HTML = container.bundleIdentifier.map { "<code>\(visible: $0)</code> " } ?? "unknown "
        html += fact(
            "Bundle identifier",
            "\(identifier)<span class=\"muted\">(\(Self.sourceTitle(container.bundleIdentifierSource)))</span>")
        let candidates = container.identityCandidates.map { "<code>\(visible: $0)</code>" as HTML }
        if !candidates.isEmpty { html += fact("Candidates", candidates.joined(separator: ", ")) }
        html += disagreeingClues()
        if let exported = container.exportedAt {
            let when =
                exported.isLocalTime
                ? String(ReportDates.exportTime(exported).map { $0 == "T" ? " " : $0 })
                : (ReportDates.utc(secondsSince1970: Double(exported.seconds)) ?? ReportDates.exportTime(exported))
            html += fact("Exported", "\(when) <span class=\"muted\">(\(ReportDates.exportTimeSource(exported)))</span>")
        }
        html += "</dl>\n"
        if let backup = report.deviceBackup { html += deviceBackup(backup) }
        if let bundle = report.appBundle { html += appBundle(bundle) }
        if !report.appGroups.isEmpty { html += appGroups() }
        html += "<h3>Metadata</h3>\n"
        if container.metadata.isEmpty {
            html += "<p class=\"muted\">No metadata property list was found in the input.</p>\n"
        }
        for document in container.metadata {
            html +=
                "<details class=\"doc\" open><summary><span class=\"path\">\(visible: document.path)</span></summary>\n"
            if let problem = document.problem {
                html += "<p class=\"problem\">Could not be read completely: \(problem)</p>\n"
            }
            if let value = document.value { html += PropertyListHTML.render(value) }
            html += "</details>\n"
        }
        return html + HTMLPieces.sectionEnd
    }

    private func fact(_ term: String, _ definition: HTML) -> HTML { "<dt>\(term)</dt><dd>\(definition)</dd>\n" }

    /// The device backup audited or laid over the export: what it holds for the app, sizes from its manifest.
    private func deviceBackup(_ backup: DeviceBackupSummary) -> HTML {
        var html: HTML = "<h3>Device backup</h3>\n<dl class=\"facts\">\n"
        let role: HTML = backup.role == .input ? "the audited input" : "every file's backup state comes from it"
        html += fact(
            "Backup", "<span class=\"path\">\(visible: backup.path)</span> <span class=\"muted\">(\(role))</span>")
        if let version = backup.productVersion { html += fact("iOS", HTML.visible(version)) }
        if let date = backup.date, let when = ReportDates.utc(secondsSince1970: Double(date)) {
            html += fact("Backed up", HTML.text(when))
        }
        let app = backup.app.total
        html += fact(
            "App domain",
            "<code>\(visible: backup.app.name)</code>: \(HTMLFormatting.grouped(app.files)) files, "
                + "\(HTMLPieces.size(app.apparentBytes)) backed up <span class=\"muted\">(\(HTMLPieces.size(app.allocatedBytes)) allocated, "
                + "estimated: each file rounded up to 4 KiB blocks)</span>")
        if let missing = backup.notInExport {
            html += fact("Not in the export", "\(HTMLFormatting.grouped(missing)) backed-up files")
        }
        return html + "</dl>\n"
    }

    private func appBundle(_ bundle: AppBundleInfo) -> HTML {
        var html: HTML = "<h3>App bundle</h3>\n<dl class=\"facts\">\n"
        html += fact("Path", "<span class=\"path\">\(visible: bundle.path)</span>")
        if let identifier = bundle.bundleIdentifier {
            html += fact("Bundle identifier", "<code>\(visible: identifier)</code>")
        }
        let entries = HTMLFormatting.count(bundle.size.files, "entry")
        html += fact("Size", "\(HTMLPieces.size(bundle.size.allocatedBytes)) in \(entries)")
        html += fact("UIFileSharingEnabled", bundle.fileSharingEnabled ? "yes" : "no")
        html += fact("LSSupportsOpeningDocumentsInPlace", bundle.opensDocumentsInPlace ? "yes" : "no")
        html += "</dl>\n"
        if let info = bundle.infoPlist {
            html += "<details class=\"doc\"><summary>Info.plist</summary>\n\(PropertyListHTML.render(info))</details>\n"
        }
        return html
    }

    private func appGroups() -> HTML {
        let head: HTML =
            "<th>Identifier</th><th>Path</th><th class=\"num\">Entries</th><th class=\"num\">Allocated</th>"
        let rows = report.appGroups.map { group -> HTML in
            let identifier = group.identifier.map { HTML.visible($0) } ?? "<span class=\"muted\">unknown</span>"
            return "<tr><td>\(identifier)</td><td class=\"path\">\(visible: group.path)</td>"
                + HTMLPieces.countCell(group.size.files) + HTMLPieces.sizeCell(group.size.allocatedBytes) + "</tr>\n"
        }
        return "<h3>App groups</h3>\n" + HTMLPieces.table(head: head, rows: rows.joined())
    }
}
