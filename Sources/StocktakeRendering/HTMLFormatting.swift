/// Numbers, sizes and dates as the page shows them. Integer arithmetic and no locale, so the same report
/// always renders to the same bytes on every platform.
public enum HTMLFormatting {
    /// Decimal units, as Finder and Settings count them: "999 bytes", "1.5 KB", "12.3 MB", "250 GB".
    public static func bytes(_ value: Int64) -> String {
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        if magnitude < 1000 { return sign + "\(magnitude) " + (magnitude == 1 ? "byte" : "bytes") }
        let units = ["KB", "MB", "GB", "TB", "PB", "EB"]
        var unitSize: UInt64 = 1000
        for (position, unit) in units.enumerated() {
            // Rounded half up; no sum can overflow since unitSize / 2 < 2^60 and magnitude <= 2^63.
            let tenths = rounded(magnitude, dividedBy: unitSize / 10)
            if tenths < 1000 { return sign + "\(tenths / 10).\(tenths % 10) " + unit }
            let whole = rounded(magnitude, dividedBy: unitSize)
            if whole < 1000 || position == units.count - 1 { return sign + "\(whole) " + unit }
            unitSize *= 1000
        }
        return sign + "\(magnitude) bytes"
    }

    private static func rounded(_ value: UInt64, dividedBy divisor: UInt64) -> UInt64 {
        value / divisor + (value % divisor >= (divisor + 1) / 2 ? 1 : 0)
    }

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

    /// A share with one decimal, "12.3%"; "0%" for nothing, "<0.1%" for a sliver.
    public static func percent(_ part: Int64, of whole: Int64) -> String {
        let tenths = shareInTenthsOfPercent(part, of: whole)
        if tenths == 0 { return part > 0 ? "<0.1%" : "0%" }
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// The share in tenths of a percent (0...1000), for widths and labels.
    public static func shareInTenthsOfPercent(_ part: Int64, of whole: Int64) -> Int {
        guard whole > 0, part > 0 else { return 0 }
        let share = (Double(part) / Double(whole) * 1000).rounded()
        return Int(min(1000, max(0, share)))
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
