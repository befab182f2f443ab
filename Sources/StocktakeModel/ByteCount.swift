/// Byte counts for people, the one formatter every view uses: decimal units as iOS Settings and Finder show
/// them, three significant digits ("999 bytes", "1.5 KB", "12.3 MB", "184 KB"). Integer arithmetic and no
/// locale, so a report renders to the same bytes on every platform.
public enum ByteCount {
    public static func format(_ value: Int64) -> String {
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

    /// A change: "+1.2 MB", "-4.0 KB", "0 bytes".
    public static func signed(_ delta: Int64) -> String { delta > 0 ? "+" + format(delta) : format(delta) }

    private static func rounded(_ value: UInt64, dividedBy divisor: UInt64) -> UInt64 {
        value / divisor + (value % divisor >= (divisor + 1) / 2 ? 1 : 0)
    }
}

/// Percentages for people, the one formatter every view uses: one decimal, no locale.
public enum Percent {
    /// A share: "12.3%"; "0%" for nothing, "<0.1%" for a sliver.
    public static func share(_ part: Int64, of whole: Int64) -> String {
        let tenths = tenthsOfShare(part, of: whole)
        if tenths == 0 { return part > 0 ? "<0.1%" : "0%" }
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// The share in tenths of a percent (0...1000), for widths and labels.
    public static func tenthsOfShare(_ part: Int64, of whole: Int64) -> Int {
        guard whole > 0, part > 0 else { return 0 }
        let share = (Double(part) / Double(whole) * 1000).rounded()
        return Int(min(1000, max(0, share)))
    }

    /// A change against the old side (bloaty's conventions): "[ = ]" unchanged, "[NEW]" from nothing, "[DEL]"
    /// down to nothing, else signed with one decimal ("+12.5%", "-3.0%"); beyond a million percent a compact
    /// exponent keeps a column narrow ("+4.2e7%").
    public static func change(old: Int64, new: Int64) -> String {
        if old == new { return "[ = ]" }
        if old == 0 { return "[NEW]" }
        if new == 0 { return "[DEL]" }
        let sign = new > old ? "+" : "-"
        var magnitude = abs((Double(new) - Double(old)) / Double(old) * 100)
        guard magnitude.isFinite else { return sign + "?%" }
        if magnitude < 1_000_000 {
            let tenths = Int64((magnitude * 10).rounded())
            return "\(sign)\(tenths / 10).\(tenths % 10)%"
        }
        var exponent = 0
        while magnitude >= 10 {
            magnitude /= 10
            exponent += 1
        }
        var tenths = Int((magnitude * 10).rounded())
        if tenths >= 100 {
            tenths /= 10
            exponent += 1
        }
        return "\(sign)\(tenths / 10).\(tenths % 10)e\(exponent)%"
    }
}
