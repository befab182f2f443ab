import StocktakeRendering

/// The formats of `stocktake diff`, selected by `--format` (contract ids), one writer each: a plain table for the
/// terminal (the default), GitHub-flavoured Markdown for a pull-request comment, the whole diff for scripts (see
/// Reports/diff.schema.json), and one self-contained page.
package enum DiffFormat: String, CaseIterable, Sendable { case text, markdown, json, html }

/// What the writers for people need beyond the diff itself.
package struct DiffRenderOptions: Sendable {
    /// Rows per list in the text, Markdown and HTML output; the rest collapse into an "N others" line.
    /// The JSON lists every file row whatever this says; folder changes follow `DiffOptions.directoryLimit`.
    package var limit: Int
    package var tool: ToolInfo

    package init(limit: Int = 20, tool: ToolInfo = .current) {
        self.limit = max(0, limit)
        self.tool = tool
    }
}

/// Renders a `ReportDiff` with the gates evaluated on it.
package enum DiffWriter {
    /// `schemaVersion` of the JSON diff (Reports/diff.schema.json).
    package static let jsonSchemaVersion = 1

    package static func render(
        _ diff: ReportDiff, gates: [DiffGateResult], format: DiffFormat,
        options: DiffRenderOptions = DiffRenderOptions()
    ) throws -> [UInt8] {
        // `limit` is a var: a caller may have set it below 0 after `init` clamped it.
        let options = DiffRenderOptions(limit: options.limit, tool: options.tool)
        switch format {
        case .text: return Array(TextDiffWriter(diff: diff, gates: gates, options: options).render().utf8)
        case .markdown: return Array(MarkdownDiffWriter(diff: diff, gates: gates, options: options).render().utf8)
        case .json: return try JSONDiffWriter(diff: diff, gates: gates, options: options).render()
        case .html: return Array(HTMLDiffWriter(diff: diff, gates: gates, options: options).render().utf8)
        }
    }
}
