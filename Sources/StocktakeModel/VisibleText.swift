/// Text from a container, made safe to show a person. Names are attacker-controlled: an escape sequence
/// in a file name must not recolour, clear or retitle a terminal; a line break must not start a line of
/// its own (a forged log line, or a GitHub Actions workflow command such as `::error`); a bidirectional
/// control must not make `exe.txt` read as `txt.exe`.
///
/// One table (`isReplaced`) says which scalars never reach a reader as themselves; each output picks a
/// style for what shows instead. Outputs escape their own syntax (`&`, `|`, `%`, …) separately.
public enum VisibleText {
    public enum Style: Sendable, CaseIterable {
        /// The audit summary, the diff and history tables, error messages: `\x1b`, `\x0a`, `\u{9b}`,
        /// `\u{202e}`. Plain ASCII a terminal cannot act on, naming the scalar exactly.
        case terminal
        /// A name quoted inside a message (findings, scan issues, errors). Written like `terminal`: a
        /// message reaches terminals, pages and annotations alike, and each escapes it again for itself.
        case message
        /// Pages: Control Pictures for C0 controls and DEL (␛, ␊, ␡), U+FFFD for the rest, which have no
        /// picture.
        case html
        /// Markdown summaries and diffs: as `html`.
        case markdown
        /// GitHub workflow-command annotations: as `html`. The writer escapes `%`, CR and LF first, as the
        /// runner decodes exactly those.
        case github
        /// JUnit failure texts, which CI pages show: as `html`.
        case junit
    }

    /// The table: whether `scalar` is shown through a style rather than as itself.
    public static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // C0 controls (ESC, BEL, CR, LF, …), DEL and C1 controls (CSI U+009B, NEL U+0085): terminal
        // commands and line breaks.
        case 0x00...0x1F, 0x7F...0x9F: true
        // Bidirectional marks, embeddings, overrides and isolates (Unicode's Bidi_Control set).
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        // Line and paragraph separators: line breaks to many readers.
        case 0x2028, 0x2029: true
        // Noncharacters: not text at all (HTML calls them parse errors, XML cannot carry U+FFFE/U+FFFF),
        // so a reader would see a name that is not there.
        case 0xFDD0...0xFDEF: true
        case let value where value & 0xFFFE == 0xFFFE: true
        default: false
        }
    }

    /// `text` in `style`: every scalar of the table replaced, everything else unchanged.
    public static func render(_ text: String, as style: Style) -> String {
        guard text.unicodeScalars.contains(where: isReplaced) else { return text }
        var output = ""
        output.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars { append(scalar, as: style, to: &output) }
        return output
    }

    /// A value a message echoes (`'abc'`): visible, and cut after `limit` characters with its full size said, so a
    /// hostile multi-megabyte value never reaches a terminal whole.
    public static func quoted(_ text: String, limit: Int = 64) -> String {
        var scalars = text.unicodeScalars.prefix(limit + 1)
        guard scalars.count > limit else { return "'" + render(text, as: .message) + "'" }
        scalars = scalars.prefix(limit)
        let shown = render(String(String.UnicodeScalarView(scalars)), as: .message)
        return "'\(shown)…' (\(text.utf8.count) bytes)"
    }

    /// One scalar in `style`, for writers that escape their own syntax in the same pass.
    public static func append(_ scalar: Unicode.Scalar, as style: Style, to output: inout String) {
        guard isReplaced(scalar) else {
            output.unicodeScalars.append(scalar)
            return
        }
        switch style {
        case .terminal, .message: output += notation(scalar)
        case .html, .markdown, .github, .junit: output.unicodeScalars.append(picture(scalar))
        }
    }

    /// `\x1b` below U+0080, `\u{202e}` above: Swift's and most shells' way of writing the scalar.
    private static func notation(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16)
        if scalar.value < 0x80 { return "\\x" + (digits.count == 1 ? "0" : "") + digits }
        return "\\u{" + digits + "}"
    }

    /// Control Pictures: U+2400 + code for C0 (␊ for a newline), U+2421 (␡) for DEL; U+FFFD otherwise.
    private static func picture(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
        case 0x7F: "\u{2421}"
        default: "\u{FFFD}"
        }
    }
}
