import Foundation
import StocktakeModel

/// Whether a value is random enough to be a secret, judged as detect-secrets and gitleaks do (filters, entropy
/// limits, stopwords); docs/policy.md gives the thresholds with their measurements.
enum SecretRandomness {
    /// Shannon entropy in bits per character.
    static func entropy<S: StringProtocol>(_ text: S) -> Double {
        let counts = Dictionary(text.map { ($0, 1) }, uniquingKeysWith: +)
        let length = Double(text.count)
        return counts.values.reduce(0) { sum, count in
            let share = Double(count) / length
            return sum - share * log2(share)
        }
    }

    /// Shortest hex-only value (lowercase or uppercase) that can be a secret under a secret's name: 32, an MD5-sized
    /// session id (TikTok's `sessionid`); shorter hex is a colour, a short hash or a counter.
    static let minimumHexLength = 32

    /// Entropy a hex-only value must reach: detect-secrets' hex limit (3.0). Uniformly random hex of 32 characters
    /// measured 3.22 at its 0.5th percentile (20,000 samples), so nearly every real one passes.
    static let hexEntropyFloor = 3.0

    /// Entropy any other value under a secret's name must reach: 3.3 below 20 characters (the 0.5th percentile of
    /// uniformly random base62 of 16 characters measured 3.33), 3.5 from 20 on (gitleaks' `generic-api-key`
    /// limit; random base62 of 20 characters measured 3.58 at its 0.5th percentile).
    static func namedEntropyFloor(length: Int) -> Double { length < 20 ? 3.3 : 3.5 }

    /// Entropy a value needs when no name vouches for it: random base62 of its length at its 0.5th percentile
    /// (20,000 samples per length, interpolated), at most detect-secrets' base64 limit of 4.5.
    static func unnamedEntropyFloor(length: Int) -> Double {
        let measured: [(Int, Double)] = [(16, 3.33), (20, 3.58), (24, 3.82), (32, 4.16), (40, 4.41), (64, 4.87)]
        guard length > measured[0].0 else { return measured[0].1 }
        for (low, high) in zip(measured, measured.dropFirst()) where length <= high.0 {
            let fraction = Double(length - low.0) / Double(high.0 - low.0)
            return min(4.5, low.1 + fraction * (high.1 - low.1))
        }
        return 4.5
    }

    static func isHex<S: StringProtocol>(_ text: S) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isHexDigit }
    }

    /// What no secret looks like, whatever its entropy.
    static func isNotSecret(_ value: String, name: String?) -> Bool {
        isTemplate(value) || isSequential(value) || isIdentifier(value) || isPathOrPlainURL(value)
            || isLabelledHash(value) || name.map { echoes(value, name: $0) } == true
    }

    /// `${TOKEN}`, `{{token}}`, `<your key>`, `%@`, `YOUR_API_KEY`, `changeme`: text a developer or a build fills in.
    static func isTemplate(_ value: String) -> Bool {
        let lowered = value.lowercased()
        if ["${", "{{", "$(", "%@", "%s", "%d", "%{"].contains(where: lowered.contains) { return true }
        if let first = lowered.first, let last = lowered.last,
            ("<", ">") == (first, last) || ("[", "]") == (first, last) || ("{", "}") == (first, last)
        {
            return true
        }
        if lowered.hasPrefix("$"), lowered.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            return true
        }
        return stopwords.contains(where: lowered.contains)
    }

    /// Words a real secret's random characters practically never spell (a run of four given letters in 40
    /// random base62 characters: about 3 in a million).
    private static let stopwords = [
        "your", "example", "changeme", "placeholder", "dummy", "sample", "insert", "replace", "redacted", "xxxx",
        "****", "todo", "fixme", "secret_here", "token_here", "key_here",
    ]

    /// A run of a keyboard row, the alphabet or digits, or one or two characters repeated.
    static func isSequential(_ value: String) -> Bool {
        let upper = value.uppercased()
        if sequences.contains(where: { $0.contains(upper) }) { return true }
        return Set(value).count <= 2
    }

    private static let sequences = [
        String(repeating: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", count: 2), String(repeating: "0123456789", count: 2),
        String(repeating: "0123456789ABCDEF", count: 2),
        String(repeating: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", count: 2),
        String(repeating: "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/", count: 2),
        "QWERTYUIOPASDFGHJKLZXCVBNM", "1QAZ2WSX3EDC4RFV5TGB6YHN7UJM8IK9OL0P", "9876543210",
        "ZYXWVUTSRQPONMLKJIHGFEDCBA",
    ].map { $0.uppercased() }

    /// Words joined as code joins them (`currencyArrayKey`, `AUTH_TOKEN_KEY`, `user-profile-v2`): words of three
    /// letters or more on average, most with a vowel; random characters break into short clusters (`Xk9f`, `Q2`).
    static func isIdentifier(_ value: String) -> Bool {
        guard value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-. :".contains($0)) }) else {
            return false
        }
        let words = SecretNames.words(value)
        guard !words.isEmpty else { return false }
        var letterWords = 0
        var voiced = 0
        var letters = 0
        for word in words {
            if word.allSatisfy(\.isNumber) { continue }
            let body = word.prefix { $0.isLetter }
            guard word.dropFirst(body.count).allSatisfy(\.isNumber), !body.isEmpty else { return false }
            letterWords += 1
            letters += body.count
            if body.contains(where: { "aeiouy".contains($0) }) { voiced += 1 }
        }
        guard letterWords > 0 else { return false }
        return Double(letters) / Double(letterWords) >= 3 && Double(voiced) >= 0.75 * Double(letterWords)
    }

    /// A path or a URL without a user and password: the place of a secret, not one (its query is judged elsewhere).
    static func isPathOrPlainURL(_ value: String) -> Bool {
        if value.hasPrefix("/") || value.hasPrefix("~/") || value.hasPrefix("./") { return true }
        guard let scheme = value.range(of: "://") else { return false }
        let authority = value[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !(authority.contains("@") && authority.prefix { $0 != "@" }.contains(":"))
    }

    /// `sha256:…`, `sha384-…` (subresource integrity), `md5=…`: a digest that says what it is.
    static func isLabelledHash(_ value: String) -> Bool {
        let lowered = value.lowercased()
        return ["sha1", "sha256", "sha384", "sha512", "md5"].contains { label in
            [":", "-", "="].contains { lowered.hasPrefix(label + $0) }
        }
    }

    /// The value repeats the name it is stored under (`kAuthTokenKey` under `authToken`): a constant, not a secret.
    static func echoes(_ value: String, name: String) -> Bool {
        let plainName = String(name.lowercased().filter { $0.isLetter || $0.isNumber })
        let plainValue = String(value.lowercased().filter { $0.isLetter || $0.isNumber })
        guard plainName.count >= 4 else { return plainValue == plainName }
        return plainValue.contains(plainName) || (plainValue.count >= 4 && plainName.contains(plainValue))
    }

    /// Whether a string no name vouches for (a key, a cookie's name, a table) is itself a token: a documented shape,
    /// or 20 or more letters and digits, not words, as random as random base62 of its length at its 0.5th percentile.
    static func looksLikeToken<S: StringProtocol>(_ word: S) -> Bool {
        let text = String(word)
        if SecretShapes.isJWT(Substring(text)) || SecretShapes.prefixedKind(Substring(text)) != nil { return true }
        // Words joined to an id (`google_stats_a1517e7f56390cf`): the id is judged alone. Random base64url rarely
        // holds a fragment that reads as a word of four letters or more.
        let fragments = text.split { $0 == "_" || $0 == "-" }
        if fragments.count > 1,
            fragments.contains(where: { $0.count >= 4 && $0.allSatisfy(\.isLetter) && isIdentifier(String($0)) })
        {
            return fragments.contains { !($0.allSatisfy(\.isLetter) && isIdentifier(String($0))) && looksLikeToken($0) }
        }
        guard text.count >= 20, text.contains(where: \.isNumber), text.contains(where: \.isLetter),
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_+/=".contains($0)) }),
            !isSequential(text), !isIdentifier(text), !isUUID(text)
        else { return false }
        if isHex(text) { return text.count >= minimumHexLength && entropy(text) >= hexEntropyFloor }
        return entropy(text) >= unnamedEntropyFloor(length: text.count)
    }

    static func isUUID(_ text: String) -> Bool { Hex.isUUID(text.utf8) }

    /// A name with every secret-shaped part shown by its shape (`key <token, 40 chars>.enabled`), a JWT kept whole.
    static func redacted(_ name: String) -> String {
        guard name.utf8.count >= 16 else { return name }
        var result = ""
        var part = ""
        func flush() {
            guard !part.isEmpty else { return }
            result += shown(part)
            part = ""
        }
        let characters = Array(name)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            // A dot inside a JWT is part of it; elsewhere it joins a key path.
            let rest = character == "." ? String(characters[index...].prefix { !separators.contains($0) }) : ""
            if !rest.isEmpty, SecretShapes.isJWT(Substring(part + rest)) {
                part += rest
                index += rest.count
                continue
            }
            if character == "." || separators.contains(character) {
                flush()
                result.append(character)
            } else {
                part.append(character)
            }
            index += 1
        }
        flush()
        return result
    }

    private static let separators = Set(" /:=,;&?'\"()[]{}<>|\t")

    /// A part of a name as reports show it: itself, or its shape when it is a token.
    private static func shown(_ part: String) -> String {
        guard part.count >= 16 else { return part }
        if SecretShapes.isJWT(Substring(part)) { return "<JWT, \(part.count) chars>" }
        if let kind = SecretShapes.prefixedKind(Substring(part)) { return "<\(kind.shapeName), \(part.count) chars>" }
        if looksLikeToken(part) { return "<token, \(part.count) chars>" }
        return part
    }
}

extension SensitiveItem.Kind {
    /// How a redacted name names the shape it hides.
    var shapeName: String {
        switch self {
        case .cloudAccessKey: "cloud key"
        case .apiKey: "API key"
        case .jwt: "JWT"
        case .privateKey: "private key"
        case .password: "password"
        default: "token"
        }
    }
}
