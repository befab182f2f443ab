import StocktakeModel

/// `AppDataInfo.plist` `XCDownloadDate`: when Xcode downloaded the container. Xcode writes the Mac's local
/// wall-clock time as text, with a dot between minutes and seconds (`2019-08-16 21:56.56.285`); some
/// versions write a colon, and a plist `<date>` (UTC) is taken as well.
enum DownloadDate {
    static func exportTime(_ value: PropertyListValue?) -> ExportTime? {
        switch value {
        case .date(let sinceReference)?:
            guard sinceReference.isFinite, abs(sinceReference) < 1e12 else { return nil }
            let seconds = Int64(sinceReference.rounded(.down)) + PropertyListText.referenceDateOffset
            let milliseconds = Int(((sinceReference - sinceReference.rounded(.down)) * 1000).rounded(.down))
            return ExportTime(seconds: seconds, milliseconds: milliseconds, source: .downloadDate)
        case .string(let text)?:
            return parse(text).map { ExportTime(seconds: $0.seconds, milliseconds: $0.milliseconds, source: .downloadDate, isLocalTime: true) }
        default:
            return nil
        }
    }

    /// `YYYY-MM-DD HH:MM.SS[.mmm]` or `YYYY-MM-DD HH:MM:SS[.mmm]`, read as if UTC.
    static func parse(_ text: String) -> (seconds: Int64, milliseconds: Int)? {
        let characters = Array(text.utf8)
        guard characters.count == 19 || (characters.count >= 21 && characters.count <= 23) else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let digit = characters[index] &- UInt8(ascii: "0")
                guard digit <= 9 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        let secondsSeparator = characters[16]
        guard characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"), characters[10] == UInt8(ascii: " "),
              characters[13] == UInt8(ascii: ":"), secondsSeparator == UInt8(ascii: ".") || secondsSeparator == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...PropertyListText.daysInMonth(month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var milliseconds = 0
        if characters.count > 19 {
            guard characters[19] == UInt8(ascii: "."), let fraction = number(20..<characters.count) else { return nil }
            milliseconds = Int(fraction) * [100, 10, 1][characters.count - 21]
        }
        let days = PropertyListText.daysSinceUnixEpoch(year: year, month: month, day: day)
        return (days * 86_400 + hour * 3_600 + minute * 60 + second, milliseconds)
    }
}
