import StocktakeModel
import StocktakePropertyLists

/// `XCDownloadDate`: Xcode writes the Mac's local time as text, a dot between minutes and seconds
/// (`2019-08-16 21:56.56.285`); some versions write a colon, and a plist `<date>` (UTC) is taken as well.
enum DownloadDate {
    static func exportTime(_ value: PropertyListValue?) -> ExportTime? {
        switch value {
        case .date(let sinceReference)?:
            guard sinceReference.isFinite, abs(sinceReference) < 1e12 else { return nil }
            let seconds = Int64(sinceReference.rounded(.down)) + PropertyListText.referenceDateOffset
            let milliseconds = Int(((sinceReference - sinceReference.rounded(.down)) * 1000).rounded(.down))
            return ExportTime(seconds: seconds, milliseconds: milliseconds, source: .downloadDate)
        case .string(let text)?:
            return parse(text).map {
                ExportTime(seconds: $0.seconds, milliseconds: $0.milliseconds, source: .downloadDate, isLocalTime: true)
            }
        default:
            return nil
        }
    }

    /// `YYYY-MM-DD HH:MM.SS[.mmm]` or `YYYY-MM-DD HH:MM:SS[.mmm]`, read as if UTC.
    static func parse(_ text: String) -> (seconds: Int64, milliseconds: Int)? {
        let characters = Array(text.utf8)
        guard characters.count == 19 || (21...23).contains(characters.count),
            let seconds = ISO8601Seconds.wallClockSeconds(
                characters, dateTimeSeparator: UInt8(ascii: " "),
                secondsSeparators: [UInt8(ascii: "."), UInt8(ascii: ":")])
        else { return nil }
        guard characters.count > 19 else { return (seconds, 0) }
        guard characters[19] == UInt8(ascii: "."),
            let fraction = ISO8601Seconds.number(characters, 20..<characters.count)
        else { return nil }
        return (seconds, Int(fraction) * [100, 10, 1][characters.count - 21])
    }
}
