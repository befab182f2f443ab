import StocktakeModel

/// Numbers, sizes and dates as the page shows them. Integer arithmetic and no locale, so the same report
/// always renders to the same bytes on every platform.
public enum HTMLFormatting {
    /// "1,234,567 bytes", for title attributes beside the human figure.
    public static func exactBytes(_ value: Int64) -> String { grouped(value) + (value == 1 ? " byte" : " bytes") }

    /// Digits grouped by thousands with commas.
    public static func grouped(_ value: some BinaryInteger) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// "1,204 files": a count with grouped digits, then its noun in the right number.
    public static func count(_ count: some BinaryInteger, _ singular: String) -> String {
        Plural.count(count, singular, number: grouped(count))
    }

    /// A fixed-point number with one decimal for SVG coordinates and CSS widths: 12.3.
    public static func decimal(tenths: Int) -> String {
        (tenths < 0 ? "-" : "") + "\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
    }
}
