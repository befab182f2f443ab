import StocktakeModel

/// The secrets of a text file the app writes, line by line: `Authorization:` headers, `name = value` pairs that
/// say secret, and secret shapes. Places are line numbers.
enum TextSecrets {
    static func find(in bytes: [UInt8]) -> [PropertyListSecrets.Hit] {
        guard mayHoldSecret(bytes) else { return [] }
        let text = String(decoding: bytes, as: UTF8.self)
        var hits: [PropertyListSecrets.Hit] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let place = "line \(number)"
            if let header = authorization(line) {
                hits.append(PropertyListSecrets.Hit(place: place, kind: .authorizationHeader, length: header))
                continue
            }
            var found = pairs(in: line).compactMap { SecretNames.secret($0.value, storedUnder: $0.name) }
            if found.isEmpty { found = SecretShapes.find(in: line) }
            hits += found.map { PropertyListSecrets.Hit(place: place, kind: $0.kind, length: $0.length) }
        }
        return hits
    }

    /// Fragments every secret this reader recognises contains (a name stem or a shape's prefix): most text an app
    /// writes holds none of them and is passed over in one pass at memory speed.
    static let triggers: [[UInt8]] = [
        "assw", "ASSW", "pwd", "PWD", "oken", "OKEN", "ecret", "ECRET", "pin\"", "pin=", "pin:", "Pin", "PIN",
        "asscode", "ASSCODE",
        "piKey", "pi_key", "PI_KEY", "pikey", "ession", "ESSION", "redential", "REDENTIAL", "uthorization",
        "UTHORIZATION",
        "sid", "SID", "eyJ", "PRIVATE KEY", "AKIA", "ASIA", "ghp_", "github_pat_", "xox", "sk_live_", "rk_live_",
        "rivateKey", "rivate_key", "PRIVATE_KEY", "lientSecret", "sk_test_", "rk_test_", "gho_", "ghu_", "ghs_", "ghr_",
        "glpat-",
        "sk-proj-", "SG.", "://",
    ].map { Array($0.utf8) }

    /// Each trigger's first two bytes as one bit of a 64 Kibit table (8 KiB, it stays in L1): one look-up per byte of
    /// text, and most text an app writes holds no pair that starts one (searching for each trigger in turn read it 50
    /// times, and was most of a large audit's time).
    private static let pairBits: [UInt64] = triggers.reduce(into: [UInt64](repeating: 0, count: 1 << 10)) {
        let pair = Int($1[0]) << 8 | Int($1[1])
        $0[pair >> 6] |= 1 << UInt64(pair & 63)
    }
    /// The triggers by their first two bytes, each as a little-endian word of its first (up to) 8 bytes, the mask of
    /// those bytes, and the bytes past them; `firstOfPair` gives where a pair's triggers start.
    private static let words: [(pair: Int, word: UInt64, mask: UInt64, rest: [UInt8])] = triggers.map { trigger in
        let head = trigger.prefix(8)
        let word = head.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
        let mask = head.count == 8 ? UInt64.max : (1 << UInt64(8 * head.count)) - 1
        return (Int(trigger[0]) << 8 | Int(trigger[1]), word, mask, Array(trigger.dropFirst(8)))
    }.sorted { $0.pair < $1.pair }
    private static let firstOfPair: [UInt8] = words.indices.reversed().reduce(
        into: [UInt8](repeating: 0, count: 1 << 16)
    ) {
        $0[words[$1].pair] = UInt8($1)
    }

    static func mayHoldSecret(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { mayHoldSecret($0) } }

    static func mayHoldSecret(_ text: UnsafeRawBufferPointer) -> Bool {
        guard text.count >= 2, let base = text.baseAddress else { return false }
        return pairBits.withUnsafeBufferPointer { bits in
            for index in 0..<(text.count - 1) {
                let pair =
                    Int(base.load(fromByteOffset: index, as: UInt8.self)) << 8
                    | Int(base.load(fromByteOffset: index + 1, as: UInt8.self))
                guard bits[pair >> 6] & (1 << UInt64(pair & 63)) != 0 else { continue }
                // The next 8 bytes as one word; zeros past the end match no trigger's byte.
                var word: UInt64 = 0
                if text.count - index >= 8 {
                    word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                } else {
                    for offset in index..<text.count { word |= UInt64(text[offset]) << UInt64(8 * (offset - index)) }
                }
                var next = Int(firstOfPair[pair])
                while next < words.count, words[next].pair == pair {
                    let trigger = words[next]
                    next += 1
                    guard word & trigger.mask == trigger.word else { continue }
                    let end = index + 8 + trigger.rest.count
                    if trigger.rest.isEmpty
                        || (end <= text.count && text[(index + 8)..<end].elementsEqual(trigger.rest))
                    {
                        return true
                    }
                }
            }
            return false
        }
    }

    /// The credential's length in `Authorization: Bearer …` (or Basic, or a bare token).
    private static func authorization(_ line: Substring) -> Int? {
        guard let range = line.range(of: "authorization", options: .caseInsensitive) else { return nil }
        let rest = line[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " || $0 == ":" || $0 == "=" }
        var value = String(rest.prefix { $0 != "\"" && $0 != "'" && $0 != "," && $0 != "}" }).trimmingWhitespace()
        for scheme in ["Bearer ", "Basic ", "Token ", "bearer ", "basic "] where value.hasPrefix(scheme) {
            value = String(value.dropFirst(scheme.count)).trimmingWhitespace()
        }
        return value.count >= 8 && !SecretRandomness.isTemplate(value) && !PublicValues.isPublic(value)
            ? value.count : nil
    }

    /// `name=value`, `name: value`, `"name": "value"` and `name="value"` pairs of one line.
    static func pairs(in line: Substring) -> [(name: String, value: String)] {
        var pairs: [(String, String)] = []
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            guard characters[index] == "=" || characters[index] == ":" else {
                index += 1
                continue
            }
            // The name: the word before the separator, quotes and spaces aside.
            var end = index
            while end > 0, characters[end - 1] == " " || characters[end - 1] == "\"" || characters[end - 1] == "'" {
                end -= 1
            }
            var start = end
            while start > 0,
                characters[start - 1].isLetter || characters[start - 1].isNumber
                    || "_-.".contains(characters[start - 1])
            { start -= 1 }
            // The value: quoted, or up to a space, comma, ampersand or brace.
            var valueStart = index + 1
            while valueStart < characters.count, characters[valueStart] == " " { valueStart += 1 }
            var valueEnd = valueStart
            if valueStart < characters.count, characters[valueStart] == "\"" || characters[valueStart] == "'" {
                let quote = characters[valueStart]
                valueStart += 1
                valueEnd = valueStart
                while valueEnd < characters.count, characters[valueEnd] != quote { valueEnd += 1 }
            } else {
                while valueEnd < characters.count, !" ,&;}\t".contains(characters[valueEnd]) { valueEnd += 1 }
            }
            if start < end, valueStart < valueEnd {
                pairs.append((String(characters[start..<end]), String(characters[valueStart..<valueEnd])))
            }
            index = max(index + 1, valueEnd)
        }
        return pairs
    }
}
