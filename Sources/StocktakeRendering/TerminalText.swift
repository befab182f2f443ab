import StocktakeModel

/// Text bound for a terminal. Names are made visible by `VisibleText` in its `terminal` style (an escape
/// sequence in a file name must not recolour, move the cursor or retitle the terminal); this measures them.
public enum TerminalText {
    /// Columns the text takes in a terminal, roughly as `wcwidth` counts them: East Asian wide and emoji
    /// characters take two, combining marks and zero-width characters none. Good enough to line up tables.
    public static func width(_ text: String) -> Int { text.unicodeScalars.reduce(0) { $0 + width($1) } }

    private static func width(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if [.nonspacingMark, .enclosingMark, .format].contains(scalar.properties.generalCategory) { return 0 }
        if value == 0x200B || (0xFE00...0xFE0F).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }
}

/// A table of text cells with columns lined up by display width, for the terminal. Cells go through
/// `VisibleText` here, so no caller can forget it.
public struct TextTable {
    public enum Alignment { case left, right }

    private let alignments: [Alignment]
    private var rows: [[String]?] = []

    public init(_ alignments: [Alignment]) { self.alignments = alignments }

    public mutating func add(_ cells: [String]) { rows.append(cells.map { VisibleText.render($0, as: .terminal) }) }

    /// A line of dashes across the table (before a TOTAL row).
    public mutating func addRule() { rows.append(nil) }

    /// The lines of the table, each starting with `indent`, columns two spaces apart, no trailing spaces.
    public func lines(indent: String = "  ") -> [String] {
        var widths = [Int](repeating: 0, count: alignments.count)
        for row in rows.compactMap({ $0 }) {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], TerminalText.width(cell))
            }
        }
        let ruleWidth = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
        return rows.map { row in
            guard let row else { return indent + String(repeating: "-", count: ruleWidth) }
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(
                    repeating: " ", count: max(0, widths[min(column, widths.count - 1)] - TerminalText.width(cell)))
                let isLast = column == row.count - 1
                if column > 0 { line += "  " }
                switch alignments[min(column, alignments.count - 1)] {
                case .right: line += padding + cell
                case .left: line += isLast ? cell : cell + padding
                }
            }
            return indent + line
        }
    }
}
