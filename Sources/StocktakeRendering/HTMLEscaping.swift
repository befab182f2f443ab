import StocktakeModel

/// Escaping for everything that reaches the page. Names and plist strings come from the container and are
/// attacker-controlled, so nothing is written into markup without passing through here.
public enum HTMLEscaping {
    /// Escapes for text content and for double- or single-quoted attribute values alike, so one function
    /// cannot be used in the wrong context. Characters HTML forbids in a document become U+FFFD.
    public static func escape(_ text: String) -> String {
        var output = ""
        output.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            case "\t", "\n": output.unicodeScalars.append(scalar)
            case "\r": output += "\n"  // a bare CR is a line break to a reader, and a parse-time oddity to HTML
            default:
                output.unicodeScalars.append(isForbidden(scalar) ? replacement : scalar)
            }
        }
        return output
    }

    /// A file or path name as a reader should see it: invalid UTF-8 becomes U+FFFD (`PathText.display`),
    /// and what `VisibleText` replaces shows in its `html` style (a newline as ␊; a bidirectional control,
    /// which could make `exe.txt` read as `txt.exe`, as U+FFFD). The result is escaped.
    public static func name(_ bytes: some Collection<UInt8>) -> String {
        escape(VisibleText.render(PathText.display(bytes), as: .html))
    }

    /// A `/`-separated path from the container, each component shown as by `name`, with a line-break
    /// opportunity after every separator so long paths wrap between folders rather than inside names.
    public static func path(_ bytes: [UInt8]) -> String {
        bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { name($0) }
            .joined(separator: "/<wbr>")
    }

    /// `name` for text already decoded (plist strings shown on one line, such as a bundle identifier).
    public static func visibleText(_ text: String) -> String {
        escape(VisibleText.render(text, as: .html))
    }

    private static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Controls other than tab and newline, and noncharacters: parse errors in HTML.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if (0xFDD0...0xFDEF).contains(value) { return true }
        return value & 0xFFFE == 0xFFFE
    }
}
