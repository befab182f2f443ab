import StocktakeModel

/// Escaping for GitHub-flavoured Markdown, for text that comes from a container (hostile names) and lands
/// in a table cell of a PR comment or job summary. Nothing in it may become markup, HTML, a table column,
/// a new line, a mention or a bidirectional trick.
public enum MarkdownEscaping {
    /// Inline text safe in a table cell, at most `limit` characters (longer text ends in "…").
    public static func cell(_ text: String, limit: Int = 300) -> String {
        let scalars = text.unicodeScalars
        let cell = String(escaping: scalars.prefix(limit)) { scalar, output in
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            // Emphasis, code, links (an image needs "[" too), table columns, strikethrough, math, backslash.
            case "\\", "`", "*", "_", "|", "[", "]", "~", "$":
                output.unicodeScalars.append("\\")
                output.unicodeScalars.append(scalar)
            // A word joiner after "@" stops GitHub from turning a file name into a mention.
            case "@": output += "@\u{2060}"
            // A newline would end the table row: what VisibleText replaces shows as ␊ or U+FFFD.
            default: VisibleText.append(scalar, as: .markdown, to: &output)
            }
        }
        return scalars.dropFirst(limit).isEmpty ? cell : cell + "…"
    }
}
