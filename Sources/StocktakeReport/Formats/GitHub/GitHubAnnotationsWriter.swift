import StocktakeModel
import StocktakePolicy
import StocktakeRendering

/// GitHub Actions workflow commands, printed, one line per finding: `::error file=<path>,title=<rule>::<message>`
/// (`::notice` for notes). Most severe first: GitHub shows only 10 error and 10 warning annotations per step.
/// Container paths would point at nothing in the repository, so `file=` is given only where `repositoryFile` finds
/// the path in the checkout (an export committed to it); otherwise the path goes in the title.
public struct GitHubAnnotationsWriter: Sendable {
    /// The repository-relative path of a container path, when that file is in the repository; nil otherwise.
    public let repositoryFile: @Sendable (String) -> String?

    public init(repositoryFile: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.repositoryFile = repositoryFile
    }

    public func render(_ report: Report) -> String {
        var output = ""
        for finding in report.findings.bySeverity {
            output += "::\(Self.command(finding.severity)) "
            var title = finding.rule
            if let file = finding.path.isEmpty ? nil : repositoryFile(finding.path) {
                output += "file=\(Self.escapeProperty(file)),"
            } else if !finding.path.isEmpty {
                title += " in the container at " + finding.path
            }
            output += "title=\(Self.escapeProperty(title))::\(Self.escapeData(finding.message))\n"
        }
        return output
    }

    /// GitHub's commands are the severities' names, but for a note's (`notice`).
    static func command(_ severity: Severity) -> String { severity == .note ? "notice" : severity.rawValue }

    /// The message part: `%`, CR and LF escaped as the runner expects (it decodes exactly these).
    static func escapeData(_ text: String) -> String { escape(text, property: false) }

    /// A property value: also `:` and `,`, which would otherwise end the value or the property list.
    static func escapeProperty(_ text: String) -> String { escape(text, property: true) }

    private static func escape(_ text: String, property: Bool) -> String {
        String(escaping: text.unicodeScalars) { scalar, output in
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
    }
}
