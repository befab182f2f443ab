import StocktakeModel

/// The text encodings XML property lists use for dates and data.
package enum PropertyListText {
    /// Seconds between 1970-01-01 and the plist reference date 2001-01-01, both UTC.
    package static let referenceDateOffset: Int64 = 978_307_200

    /// Parses `YYYY-MM-DDTHH:MM:SSZ` (optionally with fractional seconds) as plists store dates.
    static func secondsSinceReferenceDate(iso8601 text: String) -> Double? {
        ISO8601Seconds.parts(text).map { Double($0.seconds - referenceDateOffset) + $0.fraction }
    }

    /// Decodes base64, ignoring the whitespace plist writers put between lines; padding is optional.
    static func base64Decoded(_ text: String) -> [UInt8]? {
        var digits = text.utf8.filter {
            ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains($0)
        }
        var padding = 0
        while digits.last == UInt8(ascii: "=") {
            digits.removeLast()
            padding += 1
        }
        // Padding may be left out but never exceed what the last group lacks; one stray digit is no byte.
        let missing = (4 - digits.count % 4) % 4
        guard missing != 3, padding <= missing else { return nil }
        return Base64.decode(digits + Array(repeating: UInt8(ascii: "="), count: missing))
    }
}

extension String {
    package func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
