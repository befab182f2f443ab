import StocktakeModel
import StocktakePolicy

/// GitHub Actions workflow commands, one line per finding, most severe first:
/// `::error file=<path>,title=<rule>::<message>` (`::warning`, `::notice` for notes). The runner reads
/// them from the step's standard output, so this format is printed, not saved (see `ReportFormat.destination`).
/// GitHub shows at most 10 error and 10 warning annotations per step; the rest stay in the log, which is
/// why the most severe come first. Paths are relative to the container root, so they do not anchor to
/// repository files; the annotation still lists the path.
public struct GitHubAnnotationsWriter: Sendable {
    public init() {}

    public func render(_ report: Report) -> String {
        var output = ""
        for finding in report.findings.bySeverity {
            output += "::\(Self.command(finding.severity)) "
            if !finding.path.isEmpty { output += "file=\(Self.escapeProperty(finding.path))," }
            output += "title=\(Self.escapeProperty(finding.rule))::\(Self.escapeData(finding.message))\n"
        }
        return output
    }

    static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }

    /// The message part: `%`, CR and LF escaped as the runner expects (it decodes exactly these).
    static func escapeData(_ text: String) -> String {
        escape(text, property: false)
    }

    /// A property value: also `:` and `,`, which would otherwise end the value or the property list.
    static func escapeProperty(_ text: String) -> String {
        escape(text, property: true)
    }

    private static func escape(_ text: String, property: Bool) -> String {
        var output = ""
        output.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            case ":" where property: output += "%3A"
            case "," where property: output += "%2C"
            // Other controls and line breaks have no escape the runner decodes (an ESC would colour the log);
            // bidirectional controls could make `exe.txt` read as `txt.exe`.
            default: VisibleText.append(scalar, as: .github, to: &output)
            }
        }
        return output
    }
}
