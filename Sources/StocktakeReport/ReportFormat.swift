import StocktakeRendering

/// The report formats, selected by `--format` (contract ids). One writer per format.
public enum ReportFormat: String, CaseIterable, Sendable {
    case json
    case html
    case sarif
    case junit
    case markdown
    case github
    case ncdu

    /// Where a format's bytes go.
    public enum Destination: Sendable, Equatable {
        /// A file of this name in the output folder.
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

    /// Writes `report` in this format through `write`, in chunks.
    public func render(_ report: Report, _ write: @escaping ([UInt8]) throws -> Void) throws {
        switch self {
        case .json: try JSONReportWriter().write(report, to: write)
        case .html: try write(Array(HTMLReportWriter().render(report).utf8))
        case .sarif: try SARIFReportWriter().write(report, to: write)
        case .junit: try write(Array(JUnitReportWriter().render(report).utf8))
        case .markdown: try write(Array(MarkdownSummaryWriter().render(report).utf8))
        case .github: try write(Array(GitHubAnnotationsWriter().render(report).utf8))
        case .ncdu: try NCDUExportWriter().write(report, to: write)
        }
    }
}
