import StocktakeModel

/// Secrets recognised by their shape alone: JWTs, PEM private keys, keys with documented prefixes. Public look-alikes
/// (Firebase's `AIza…`, UUIDs) have no shape here.
enum SecretShapes {
    /// Each secret-shaped run in `text`, with its length.
    static func find(in text: Substring) -> [(kind: SensitiveItem.Kind, length: Int)] {
        var found: [(SensitiveItem.Kind, Int)] = []
        if let pem = privateKeyLength(text) { found.append((.privateKey, pem)) }
        for word in words(text) {
            if isJWT(word) {
                found.append((.jwt, word.count))
            } else if let kind = prefixedKind(word) {
                found.append((kind, word.count))
            }
        }
        found += urlPasswords(text).map { (.password, $0) }
        return found
    }

    /// `-----BEGIN … PRIVATE KEY-----` up to its END line (or the end of the text).
    private static func privateKeyLength(_ text: Substring) -> Int? {
        guard let begin = text.range(of: "-----BEGIN "),
            text[begin.upperBound...].prefix(40).contains("PRIVATE KEY-----")
        else { return nil }
        let rest = text[begin.lowerBound...]
        guard let end = rest.range(of: "-----END "), let close = rest[end.upperBound...].range(of: "-----") else {
            return rest.count
        }
        return rest.distance(from: rest.startIndex, to: close.upperBound)
    }

    /// Runs of characters tokens are made of.
    private static func words(_ text: Substring) -> [Substring] {
        text.split { !($0.isASCII && ($0.isLetter || $0.isNumber || "-_.+/".contains($0))) }.filter { $0.count >= 16 }
    }

    /// Three base64url parts, the first a JSON header naming its algorithm (`eyJ` is `{"` encoded).
    static func isJWT(_ word: Substring) -> Bool {
        guard word.hasPrefix("eyJ") else { return false }
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count >= 10, parts[1].count >= 10,
            parts.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } }),
            let header = base64URLDecoded(parts[0])
        else { return false }
        return String(decoding: header, as: UTF8.self).contains("\"alg\"")
    }

    /// Keys with a documented prefix (AWS, GitHub, GitLab, Slack, Stripe, OpenAI, SendGrid); not publishable ones.
    static func prefixedKind(_ word: Substring) -> SensitiveItem.Kind? {
        let upperAlphanumeric: (Character) -> Bool = { ($0.isUppercase || $0.isNumber) && $0.isASCII }
        if word.count == 20, word.hasPrefix("AKIA") || word.hasPrefix("ASIA"), word.allSatisfy(upperAlphanumeric) {
            return .cloudAccessKey
        }
        guard word.count >= 20 else { return nil }
        let tokens = [
            "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-", "xoxs-",
            "xoxr-",
            "xapp-",
        ]
        if tokens.contains(where: word.hasPrefix) { return .token }
        let keys = ["sk_live_", "rk_live_", "sk_test_", "rk_test_", "sk-proj-", "SG."]
        return keys.contains(where: word.hasPrefix) ? .apiKey : nil
    }

    /// The password's length in each `scheme://user:password@host` (`user@host` alone, a Sentry DSN, holds none).
    static func urlPasswords(_ text: Substring) -> [Int] {
        var lengths: [Int] = []
        var rest = text[...]
        while let scheme = rest.range(of: "://") {
            let authority = rest[scheme.upperBound...].prefix { !"/?# \t\n\"'<>".contains($0) }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                let password = authority[authority.index(after: colon)..<at]
                let user = authority[..<colon]
                if !user.isEmpty, password.count >= 4, !SecretRandomness.isTemplate(String(password)),
                    !password.allSatisfy({ $0 == "*" || $0 == "x" })
                {
                    lengths.append(password.count)
                }
            }
            rest = rest[scheme.upperBound...]
        }
        return lengths
    }

    private static func base64URLDecoded(_ text: Substring) -> [UInt8]? {
        var standard = Array(text.utf8).map {
            $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Base64.decode(standard)
    }
}
