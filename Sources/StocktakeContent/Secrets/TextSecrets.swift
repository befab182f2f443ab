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

    /// Which three bytes of a trigger key it: its first, but for a trigger that starts as common words do (`ess` in
    /// `message`, `ass` in `class`), the next three, which real text rarely holds.
    private static let keyOffsets = triggers.map {
        ["ess", "ass"].contains(String(decoding: $0.prefix(3), as: UTF8.self).lowercased()) ? 1 : 0
    }

    /// Each trigger's key hashed to one byte of a 32 KiB table (it stays in L1), held by a plain pointer so the
    /// scan's loop makes no call to the runtime. A byte, not a bit, costs the loop no shifts: one load per byte of
    /// text. Two bytes were too common a key (`es`, `re`, `ok`), and so was `ess`: a mispredicted branch and a
    /// comparison with each trigger on one byte in a hundred cost more than the look-ups themselves.
    nonisolated(unsafe) private static let keyTable: UnsafeMutablePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 15)
        table.initialize(repeating: 0, count: 1 << 15)
        for (trigger, offset) in zip(triggers, keyOffsets) {
            table[keySlot(trigger[offset...].prefix(3).reversed().reduce(0) { $0 << 8 | UInt32($1) })] = 1
        }
        return table
    }()

    @inline(__always) private static func keySlot(_ threeBytes: UInt32) -> Int {
        Int((threeBytes &* 0x9E37_79B1) &>> 17)
    }

    static func mayHoldSecret(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { mayHoldSecret($0) } }

    static func mayHoldSecret(_ text: UnsafeRawBufferPointer) -> Bool {
        guard text.count >= 3, let base = text.baseAddress else { return false }
        let table = keyTable
        @inline(__always) func keyed(_ bytes: UInt64) -> UInt8 {
            table[keySlot(UInt32(truncatingIfNeeded: bytes) & 0xFF_FFFF)]
        }
        // Little-endian: a window's first byte is its low byte. Four windows from each eight-byte load, their table
        // bytes joined so that the loop branches once per four; then the last windows one by one.
        var index = 0
        while index + 8 <= text.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if keyed(word) | keyed(word &>> 8) | keyed(word &>> 16) | keyed(word &>> 24) != 0,
                (index..<index + 4).contains(where: {
                    keyed(word &>> (8 * UInt64($0 - index))) != 0 && keysTrigger(text, at: $0)
                })
            {
                return true
            }
            index += 4
        }
        while index + 3 <= text.count {
            let window = UInt64(text[index]) | UInt64(text[index + 1]) << 8 | UInt64(text[index + 2]) << 16
            if keyed(window) != 0, keysTrigger(text, at: index) { return true }
            index += 1
        }
        return false
    }

    /// Each trigger's first eight bytes (fewer when shorter) as a little-endian word, and the mask of its length.
    nonisolated(unsafe) private static let heads: UnsafeMutableBufferPointer<(word: UInt64, mask: UInt64)> = {
        let heads = UnsafeMutableBufferPointer<(word: UInt64, mask: UInt64)>.allocate(capacity: triggers.count)
        for (index, trigger) in triggers.enumerated() {
            let word = trigger.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            heads[index] = (word, trigger.count >= 8 ? .max : 1 << (8 * trigger.count) - 1)
        }
        return heads
    }()

    /// Whether the key at `index` is a trigger's: one word compared with each trigger's head, then a long one's rest.
    @inline(never) private static func keysTrigger(_ text: UnsafeRawBufferPointer, at index: Int) -> Bool {
        let (heads, offsets) = (heads, keyOffsets)
        for number in 0..<heads.count where index >= offsets[number] {
            let start = index - offsets[number]
            let word =
                start + 8 <= text.count
                ? UInt64(littleEndian: text.baseAddress!.loadUnaligned(fromByteOffset: start, as: UInt64.self))
                : text[start...].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if word & heads[number].mask == heads[number].word
                && (triggers[number].count <= 8 || text[start...].starts(with: triggers[number]))
            {
                return true
            }
        }
        return false
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
