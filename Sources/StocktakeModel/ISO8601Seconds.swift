/// UTC times as text, read without Foundation's formatters (which accept more than they should, and differ between
/// platforms): property lists' dates, report.json's `generatedAt`, and Xcode's download date all come through here.
package enum ISO8601Seconds {
    /// `YYYY-MM-DDTHH:MM:SSZ`, optionally with up to nine digits of fraction, in seconds since 1970; nil for anything
    /// else (another machine's word: nothing here traps).
    package static func parse(_ text: String) -> Double? { parts(text).map { Double($0.seconds) + $0.fraction } }

    /// The whole seconds and the fraction apart, so a caller can move the epoch before the two are added.
    package static func parts(_ text: String) -> (seconds: Int64, fraction: Double)? {
        let characters = Array(text.utf8)
        guard characters.count >= 20, characters.last == UInt8(ascii: "Z"),
            let seconds = wallClockSeconds(
                characters, dateTimeSeparator: UInt8(ascii: "T"), secondsSeparators: [UInt8(ascii: ":")])
        else { return nil }
        let fractionDigits = characters[19..<(characters.count - 1)]
        guard !fractionDigits.isEmpty else { return (seconds, 0) }
        guard fractionDigits.first == UInt8(ascii: "."), fractionDigits.count >= 2, fractionDigits.count <= 10,
            let value = number(characters, (fractionDigits.startIndex + 1)..<fractionDigits.endIndex)
        else { return nil }
        return (seconds, Double(value) / (0..<(fractionDigits.count - 1)).reduce(1.0) { value, _ in value * 10 })
    }

    /// The first 19 characters as `YYYY-MM-DD?HH:MM?SS` (separators given) in seconds since 1970 UTC, fields checked.
    package static func wallClockSeconds(_ characters: [UInt8], dateTimeSeparator: UInt8, secondsSeparators: Set<UInt8>)
        -> Int64?
    {
        guard characters.count >= 19, characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"),
            characters[10] == dateTimeSeparator, characters[13] == UInt8(ascii: ":"),
            secondsSeparators.contains(characters[16]),
            let year = number(characters, 0..<4), let month = number(characters, 5..<7),
            let day = number(characters, 8..<10),
            let hour = number(characters, 11..<13), let minute = number(characters, 14..<16),
            let second = number(characters, 17..<19),
            (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        return daysSinceUnixEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// The decimal number written in `range` of `characters`; nil for anything but digits.
    package static func number(_ characters: [UInt8], _ range: Range<Int>) -> Int64? {
        var value: Int64 = 0
        for index in range {
            let digit = characters[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    private static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysSinceUnixEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
