import StocktakeModel

/// The secrets of a text file the app writes (a log, a JSON or config file), line by line: shaped secrets
/// anywhere (`SecretShapes`), `Authorization:` headers, and `name = value`, `name: value` or `"name": "value"`
/// pairs whose name says secret and whose value fits it (`SecretNames`). Places are line numbers.
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
            var kinds: [(SensitiveItem.Kind, Int)] = pairs(in: line).compactMap { name, value in
                guard let kind = SecretNames.kind(ofName: name),
                    let length = SecretNames.secretLength(value, as: kind, name: name)
                else { return nil }
                // A value with a shape of its own (a JWT, an AWS key) is named by its shape.
                return SecretShapes.find(in: Substring(value)).first.map { ($0.kind, $0.length) } ?? (kind, length)
            }
            if kinds.isEmpty { kinds = SecretShapes.find(in: line).map { ($0.kind, $0.length) } }
            hits += kinds.map { PropertyListSecrets.Hit(place: place, kind: $0.0, length: $0.1) }
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

    /// The triggers grouped by their first two bytes, and for each two-byte pair its group's number plus one (0:
    /// none starts so): one table look-up per byte of text (searching for each trigger in turn read it 50 times,
    /// and was most of a large audit's time).
    private static let groups: [[[UInt8]]] = Dictionary(grouping: triggers) { Int($0[0]) << 8 | Int($0[1]) }
        .sorted { $0.key < $1.key }.map(\.value)
    private static let groupOfPair: [UInt8] = groups.enumerated().reduce(into: [UInt8](repeating: 0, count: 1 << 16)) {
        $0[Int($1.element[0][0]) << 8 | Int($1.element[0][1])] = UInt8($1.offset + 1)
    }

    static func mayHoldSecret(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { text in
            groupOfPair.withUnsafeBufferPointer { groupOfPair in
                guard text.count >= 2 else { return false }
                for index in 0..<(text.count - 1) {
                    let group = groupOfPair[Int(text[index]) << 8 | Int(text[index + 1])]
                    guard group != 0 else { continue }
                    for trigger in groups[Int(group) - 1]
                    where index + trigger.count <= text.count
                        && trigger.indices.allSatisfy({ text[index + $0] == trigger[$0] })
                    {
                        return true
                    }
                }
                return false
            }
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
