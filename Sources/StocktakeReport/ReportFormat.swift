/// The report formats, selected by `--format` (contract ids). One writer per format.
public enum ReportFormat: String, CaseIterable, Sendable {
    case json
    case html

    public var fileName: String {
        switch self {
        case .json: "report.json"
        case .html: "report.html"
        }
    }

    /// Writes `report` in this format through `write`, in chunks.
    public func render(_ report: Report, _ write: @escaping ([UInt8]) throws -> Void) throws {
        switch self {
        case .json: try JSONReportWriter().write(report, to: write)
        case .html: try write(Array(HTMLReportWriter().render(report).utf8))
        }
    }
}

extension ToolInfo {
    /// This build's identity.
    public static let current = ToolInfo(version: "0.1.0")
}
