/// Escaping for GitHub-flavoured Markdown, for text that comes from a container (hostile names) and lands
/// in a table cell of a PR comment or job summary. Nothing in it may become markup, HTML, a table column,
/// a new line, a mention or a bidirectional trick.
enum MarkdownEscaping {
    /// Inline text safe in a table cell, at most `limit` characters (longer text ends in "…").
    static func cell(_ text: String, limit: Int = 300) -> String {
        var output = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                output += "…"
                break
            }
            count += 1
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
            default: output.unicodeScalars.append(visible(scalar))
            }
        }
        return output
    }

    /// Control characters (a newline would end the table row) as Control Pictures (␊); bidirectional
    /// controls, which could make `exe.txt` read as `txt.exe`, as U+FFFD.
    private static func visible(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
        case 0x7F: "\u{2421}"
        case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: "\u{FFFD}"
        default: scalar
        }
    }
}
