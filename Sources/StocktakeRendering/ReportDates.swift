import Foundation
import StocktakeModel

/// Timestamps in reports: UTC, second precision, ISO 8601.
public enum ReportDates {
    public static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
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
        case .downloadDate: time.isLocalTime ? "AppDataInfo.plist XCDownloadDate, the Mac's local time" : "AppDataInfo.plist XCDownloadDate"
        case .metadataFile: "AppDataInfo.plist's modification time"
        case .inputFolder: "the input folder's modification time"
        }
    }

    /// Folder-name form, e.g. `2026-11-21T020000Z` (no colons: safe on every file system).
    public static func folderName(_ date: Date) -> String {
        iso8601(date).replacingOccurrences(of: ":", with: "")
    }
}
