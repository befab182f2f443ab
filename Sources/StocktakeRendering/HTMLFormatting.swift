/// Numbers, sizes and dates as the page shows them. Integer arithmetic and no locale, so the same report
/// always renders to the same bytes on every platform.
public enum HTMLFormatting {
    /// "1,234,567 bytes", for title attributes beside the human figure.
    public static func exactBytes(_ value: Int64) -> String {
        grouped(value) + (value == 1 ? " byte" : " bytes")
    }

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

    /// A fixed-point number with one decimal for SVG coordinates and CSS widths: 12.3.
    public static func decimal(tenths: Int) -> String {
        "\(tenths / 10).\(tenths % 10)"
    }

    /// ISO 8601 in UTC, "2026-11-21T19:27:00Z"; nil outside years 1...9999 or for non-finite input.
    public static func utc(secondsSince1970 seconds: Double) -> String? {
        guard seconds.isFinite, seconds > -62_135_596_800, seconds < 253_402_300_800 else { return nil }
        let whole = Int64(seconds.rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }

    /// Proleptic Gregorian date from days since 1970-01-01 (the "civil from days" algorithm).
    private static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
