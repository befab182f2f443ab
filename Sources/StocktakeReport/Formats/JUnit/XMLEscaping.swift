import StocktakeRendering

/// Escaping for XML 1.0. Names and messages carry container names, which are hostile: markup characters
/// are escaped, and characters XML 1.0 cannot carry at all (most C0 controls, U+FFFE, U+FFFF) become U+FFFD,
/// since no escape makes them legal.
enum XMLEscaping {
    /// For attribute values in double quotes. Tab, newline and carriage return become character
    /// references, because a parser would otherwise normalise them to spaces.
    static func attribute(_ text: String) -> String { escape(text, inAttribute: true) }

    /// For element content. A carriage return becomes `&#13;` so parsers keep it rather than normalise it.
    static func text(_ text: String) -> String { escape(text, inAttribute: false) }

    private static func escape(_ text: String, inAttribute: Bool) -> String {
        String(escaping: text.unicodeScalars) { scalar, output in
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"  // also keeps "]]>" out of content
            case "\"" where inAttribute: output += "&quot;"
            case "'" where inAttribute: output += "&apos;"
            case "\t" where inAttribute: output += "&#9;"
            case "\n" where inAttribute: output += "&#10;"
            case "\r": output += "&#13;"
            default: output.unicodeScalars.append(isAllowed(scalar) ? scalar : "\u{FFFD}")
            }
        }
    }

    /// XML 1.0 `Char`: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
    /// (Swift scalars are never surrogates).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        [0x09, 0x0A, 0x0D].contains(scalar.value) || (0x20...0xFFFD).contains(scalar.value) || scalar.value >= 0x10000
    }
}
