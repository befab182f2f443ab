import StocktakeRendering

/// The report formats, selected by `--format` (contract ids). One writer per format.
public enum ReportFormat: String, CaseIterable, Sendable {
    case json, html, sarif, junit, markdown, github, ncdu

    public enum Destination: Sendable, Equatable {
        case file(String)
        /// The process's standard output (GitHub reads workflow commands from there).
        case standardOutput
    }

    public var destination: Destination {
        switch self {
        case .json: .file("report.json")
        case .html: .file("report.html")
        case .sarif: .file("report.sarif")
        case .junit: .file("report.junit.xml")
        case .markdown: .file("summary.md")
        case .github: .standardOutput
        case .ncdu: .file("report.ncdu.json")
        }
    }

    /// The file this format is saved as. For a `.standardOutput` format, the name to use if a caller keeps
    /// a copy anyway (callers should check `destination` first and print those formats instead).
    public var fileName: String {
        switch destination {
        case .file(let name): name
        case .standardOutput: "annotations.\(rawValue).txt"
        }
    }

    /// Writes `report` in this format through `write`, in chunks. `alongside`: every format of the run, so that
    /// `summary.md` names only the report files that are written (nil: it names `report.json` and `report.html`).
    public func render(
        _ report: Report, alongside formats: [ReportFormat]? = nil, _ write: @escaping ([UInt8]) throws -> Void
    ) throws {
        switch self {
        case .json: try JSONReportWriter().write(report, to: write)
        case .html: try write(Array(HTMLReportWriter().render(report).utf8))
        case .sarif: try SARIFReportWriter().write(report, to: write)
        case .junit: try write(Array(JUnitReportWriter().render(report).utf8))
        case .markdown:
            let files = formats.map { formats in
                var seen = Set<ReportFormat>()
                return formats.filter {
                    $0 != .markdown && $0.destination != .standardOutput && seen.insert($0).inserted
                }.map(\.fileName)
            }
            let writer =
                files.map { MarkdownSummaryWriter(fullReportsLine: MarkdownSummaryWriter.fullReportsLine(files: $0)) }
                ?? MarkdownSummaryWriter()
            try write(Array(writer.render(report).utf8))
        case .github: try write(Array(GitHubAnnotationsWriter().render(report).utf8))
        case .ncdu: try NCDUExportWriter().write(report, to: write)
        }
    }
}
