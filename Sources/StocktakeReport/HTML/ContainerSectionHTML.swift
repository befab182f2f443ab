import StocktakeModel

/// What was audited: the input, its layout, whose container it is, and every key of its metadata plists.
struct ContainerSectionHTML {
    let report: Report

    static func layoutTitle(_ layout: ContainerLayout) -> String {
        switch layout {
        case .xcappdata: "Xcode container package (.xcappdata)"
        case .simulator: "Simulator data container"
        case .bare: "Data container folder"
        }
    }

    static func sourceTitle(_ source: BundleIdentifierSource) -> String {
        switch source {
        case .option: "given with --bundle-id"
        case .appDataInfo: "from AppDataInfo.plist"
        case .containerMetadata: "from the container manager metadata plist"
        case .preferencesFile: "from the name of the preferences file in Library/Preferences"
        case .cachesFolder: "from the name of a folder in Library/Caches"
        case .none: "not found"
        }
    }

    func render() -> String {
        let container = report.container
        var html = HTMLPieces.sectionStart(id: "container", title: "Container")
        html += "<dl class=\"facts\">\n"
        html += fact("Input", "<span class=\"path\">\(HTMLEscaping.visibleText(container.inputPath))</span>")
        html += fact("Container root", "<span class=\"path\">\(HTMLEscaping.visibleText(container.rootPath))</span>")
        html += fact("Layout", Self.layoutTitle(container.layout))
        let identifier = container.bundleIdentifier.map { "<code>\(HTMLEscaping.visibleText($0))</code> " } ?? "unknown "
        html += fact("Bundle identifier", identifier + "<span class=\"muted\">(\(Self.sourceTitle(container.bundleIdentifierSource)))</span>")
        html += "</dl>\n"
        if let bundle = report.appBundle { html += appBundle(bundle) }
        if !report.appGroups.isEmpty { html += appGroups() }
        html += "<h3>Metadata</h3>\n"
        if container.metadata.isEmpty {
            html += "<p class=\"muted\">No metadata property list was found in the input.</p>\n"
        }
        for document in container.metadata {
            html += "<details class=\"doc\" open><summary><span class=\"path\">\(HTMLEscaping.visibleText(document.path))</span></summary>\n"
            if let problem = document.problem {
                html += "<p class=\"problem\">Could not be read completely: \(HTMLEscaping.escape(problem))</p>\n"
            }
            if let value = document.value { html += PropertyListHTML.render(value) }
            html += "</details>\n"
        }
        return html + HTMLPieces.sectionEnd
    }

    private func fact(_ term: String, _ definition: String) -> String {
        "<dt>\(term)</dt><dd>\(definition)</dd>\n"
    }

    private func appBundle(_ bundle: AppBundleInfo) -> String {
        var html = "<h3>App bundle</h3>\n<dl class=\"facts\">\n"
        html += fact("Path", "<span class=\"path\">\(HTMLEscaping.visibleText(bundle.path))</span>")
        if let identifier = bundle.bundleIdentifier { html += fact("Bundle identifier", "<code>\(HTMLEscaping.visibleText(identifier))</code>") }
        html += fact("Size", "\(HTMLPieces.size(bundle.size.allocatedBytes)) in \(HTMLFormatting.grouped(bundle.size.files)) entries")
        html += fact("UIFileSharingEnabled", bundle.fileSharingEnabled ? "yes" : "no")
        html += fact("LSSupportsOpeningDocumentsInPlace", bundle.opensDocumentsInPlace ? "yes" : "no")
        html += "</dl>\n"
        if let info = bundle.infoPlist {
            html += "<details class=\"doc\"><summary>Info.plist</summary>\n" + PropertyListHTML.render(info) + "</details>\n"
        }
        return html
    }

    private func appGroups() -> String {
        var html = "<h3>App groups</h3>\n<div class=\"scroll\"><table>\n<thead><tr><th>Identifier</th><th>Path</th>"
        html += "<th class=\"num\">Entries</th><th class=\"num\">Allocated</th></tr></thead>\n<tbody>\n"
        for group in report.appGroups {
            html += "<tr><td>\(group.identifier.map { HTMLEscaping.visibleText($0) } ?? "<span class=\"muted\">unknown</span>")</td>"
            html += "<td class=\"path\">\(HTMLEscaping.visibleText(group.path))</td>"
            html += HTMLPieces.countCell(group.size.files) + HTMLPieces.sizeCell(group.size.allocatedBytes) + "</tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }
}

/// A property-list value as nested lists. Bounded in depth, items per collection, total values and string
/// length, because a container's plists are input like any other file.
enum PropertyListHTML {
    static let maximumDepth = 8
    static let maximumItemsPerCollection = 200
    static let maximumValues = 2000
    static let maximumStringScalars = 2000
    static let dataPreviewBytes = 32

    static func render(_ value: PropertyListValue) -> String {
        var budget = maximumValues
        return "<div class=\"plist\">" + render(value, depth: 0, budget: &budget) + "</div>\n"
    }

    private static func render(_ value: PropertyListValue, depth: Int, budget: inout Int) -> String {
        budget -= 1
        switch value {
        case .string(let text): return tagged("string", string(text))
        case .integer(let number): return tagged("integer", "\(number)")
        case .real(let number): return tagged("real", "\(number)")
        case .bool(let flag): return tagged("boolean", flag ? "true" : "false")
        case .date(let seconds):
            let text = HTMLFormatting.utc(secondsSince1970: seconds + 978_307_200) ?? "\(seconds) s after 2001-01-01"
            return tagged("date", text)
        case .data(let bytes): return tagged("data", data(bytes))
        case .uid(let number): return tagged("uid", "\(number)")
        case .array(let items):
            guard !items.isEmpty else { return tagged("array", "empty") }
            guard depth < maximumDepth else { return tagged("array", "\(items.count) items, nested too deep to show") }
            var html = "<ol start=\"0\">"
            var shown = 0
            for item in items.prefix(maximumItemsPerCollection) {
                guard budget > 0 else { break }
                html += "<li>" + render(item, depth: depth + 1, budget: &budget) + "</li>"
                shown += 1
            }
            return html + "</ol>" + omitted(items.count, shown: shown)
        case .dictionary(let entries):
            guard !entries.isEmpty else { return tagged("dictionary", "empty") }
            guard depth < maximumDepth else { return tagged("dictionary", "\(entries.count) keys, nested too deep to show") }
            // Sorted keys: the page must not depend on dictionary order.
            var html = "<dl>"
            var shown = 0
            for key in entries.keys.sorted().prefix(maximumItemsPerCollection) {
                guard budget > 0, let item = entries[key] else { break }
                html += "<dt>" + HTMLEscaping.escape(truncated(key)) + "</dt><dd>"
                html += render(item, depth: depth + 1, budget: &budget) + "</dd>"
                shown += 1
            }
            return html + "</dl>" + omitted(entries.count, shown: shown)
        }
    }

    private static func tagged(_ type: String, _ html: String) -> String {
        "<span class=\"t\">\(type)</span>\(html)"
    }

    private static func string(_ text: String) -> String {
        HTMLEscaping.escape(truncated(text))
    }

    private static func truncated(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > maximumStringScalars else { return text }
        var short = String.UnicodeScalarView(scalars.prefix(maximumStringScalars))
        short.append(contentsOf: "… (\(scalars.count) characters)".unicodeScalars)
        return String(short)
    }

    private static func data(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var hex = ""
        for byte in bytes.prefix(dataPreviewBytes) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        let more = bytes.count > dataPreviewBytes ? "…" : ""
        return "\(HTMLFormatting.exactBytes(Int64(bytes.count)))" + (bytes.isEmpty ? "" : ": <code>\(hex)\(more)</code>")
    }

    private static func omitted(_ total: Int, shown: Int) -> String {
        guard total > shown else { return "" }
        return "<p class=\"note\">\(HTMLFormatting.grouped(total - shown)) of \(HTMLFormatting.grouped(total)) items not shown.</p>"
    }
}
