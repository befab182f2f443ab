import Foundation
import StocktakeModel

/// Timestamps in reports: UTC, second precision, ISO 8601.
public enum ReportDates {
    /// ISO 8601 in UTC to the second, "2026-11-21T19:27:00Z"; a time outside years 1 to 9999 (only a hostile
    /// source has one) is held at the nearest end, so every report's dates parse.
    public static func iso8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let held = seconds.isNaN ? 0 : min(max(seconds, firstSecond), lastSecond)
        return utc(secondsSince1970: held) ?? "1970-01-01T00:00:00Z"
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    private static let firstSecond = -62_135_596_800.0, lastSecond = 253_402_300_799.0

    /// ISO 8601 in UTC, "2026-11-21T19:27:00Z"; nil outside years 1...9999 or for non-finite input.
    public static func utc(secondsSince1970 seconds: Double) -> String? {
        guard seconds.isFinite, seconds > -62_135_596_800, seconds < 253_402_300_800 else { return nil }
        let whole = Int64(seconds.rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return
            "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
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

    /// `container.exportedAt`: ISO 8601; UTC with `Z`, or a local wall-clock time without a zone (XCDownloadDate),
    /// with milliseconds when the source has them.
    public static func exportTime(_ time: ExportTime) -> String {
        var text = String(iso8601(Date(timeIntervalSince1970: TimeInterval(time.seconds))).dropLast())  // drop the Z
        if time.milliseconds > 0 {
            let digits = String(time.milliseconds)
            text += "." + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        }
        return time.isLocalTime ? text : text + "Z"
    }

    /// How the report page names the source of the export time, for people (markup: our own words).
    public static func exportTimeSource(_ time: ExportTime) -> HTML {
        switch time.source {
        case .downloadDate:
            time.isLocalTime
                ? "AppDataInfo.plist XCDownloadDate, the Mac's local time" : "AppDataInfo.plist XCDownloadDate"
        case .metadataFile: "AppDataInfo.plist's modification time"
        case .inputFolder: "the input folder's modification time"
        }
    }

    /// Folder-name form, e.g. `2026-11-21T020000Z` (no colons: safe on every file system).
    public static func folderName(_ date: Date) -> String { iso8601(date).replacingOccurrences(of: ":", with: "") }
}
