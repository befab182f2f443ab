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

    /// Each trigger's first three bytes, hashed to one bit of a 64 Kibit table (8 KiB: it stays in L1), held by a
    /// plain pointer so the scan's loop makes no call to the runtime. Two bytes were too common a key (`es`, `re`,
    /// `ok`): the branch mispredicted on one byte in twenty, which cost more than the look-ups themselves. Real
    /// text rarely holds a trigger's first three bytes (`ess` is the most common).
    nonisolated(unsafe) private static let trigramBits: UnsafeMutablePointer<UInt64> = {
        let bits = UnsafeMutablePointer<UInt64>.allocate(capacity: 1 << 10)
        bits.initialize(repeating: 0, count: 1 << 10)
        for trigger in triggers {
            let slot = trigramSlot(UInt32(trigger[0]) | UInt32(trigger[1]) << 8 | UInt32(trigger[2]) << 16)
            bits[slot >> 6] |= 1 << UInt64(slot & 63)
        }
        return bits
    }()

    @inline(__always) private static func trigramSlot(_ threeBytes: UInt32) -> Int {
        Int((threeBytes &* 0x9E37_79B1) >> 16)
    }

    static func mayHoldSecret(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { mayHoldSecret($0) } }

    static func mayHoldSecret(_ text: UnsafeRawBufferPointer) -> Bool {
        guard text.count >= 3, let base = text.baseAddress else { return false }
        let bits = trigramBits
        func mayStart(_ threeBytes: UInt32) -> Bool {
            let slot = trigramSlot(threeBytes)
            return bits[slot >> 6] & (1 << UInt64(slot & 63)) != 0
        }
        // Little-endian: a window's first byte is its low byte. Four-byte loads while they fit, then the last three.
        var index = 0
        while index + 4 <= text.count {
            let window = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt32.self)) & 0xFF_FFFF
            if mayStart(window), startsTrigger(text, at: index) { return true }
            index += 1
        }
        let last = UInt32(text[index]) | UInt32(text[index + 1]) << 8 | UInt32(text[index + 2]) << 16
        return mayStart(last) && startsTrigger(text, at: index)
    }

    /// Whether a trigger starts at `index`: rare, so a comparison with each.
    @inline(never) private static func startsTrigger(_ text: UnsafeRawBufferPointer, at index: Int) -> Bool {
        let rest = text[index...]
        return triggers.contains { $0[0] == rest.first && rest.starts(with: $0) }
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
