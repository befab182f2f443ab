import StocktakeModel

/// Secrets recognised by their shape alone, whatever they are called: a JSON Web Token, a PEM private key,
/// cloud and service keys with documented prefixes. Public identifiers that look similar (Firebase's `AIza…`
/// browser keys, UUIDs, push tokens) are not secrets and have no shape here.
enum SecretShapes {
    /// Each secret-shaped run in `text`, with its length.
    static func find(in text: Substring) -> [(kind: SensitiveItem.Kind, length: Int)] {
        var found: [(SensitiveItem.Kind, Int)] = []
        if let pem = privateKeyLength(text) { found.append((.privateKey, pem)) }
        for word in words(text) {
            if isJWT(word) {
                found.append((.jwt, word.count))
            } else if let kind = prefixedKey(word) {
                found.append((kind, word.count))
            }
        }
        return found
    }

    /// `-----BEGIN … PRIVATE KEY-----` up to its END line (or the end of the text).
    private static func privateKeyLength(_ text: Substring) -> Int? {
        guard let begin = text.range(of: "-----BEGIN "), text[begin.upperBound...].prefix(40).contains("PRIVATE KEY-----") else { return nil }
        let rest = text[begin.lowerBound...]
        guard let end = rest.range(of: "-----END "), let close = rest[end.upperBound...].range(of: "-----") else { return rest.count }
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

    /// Keys whose vendors document a fixed prefix: AWS access key ids, GitHub, Slack and Stripe secrets.
    private static func prefixedKey(_ word: Substring) -> SensitiveItem.Kind? {
        let upperAlphanumeric: (Character) -> Bool = { ($0.isUppercase || $0.isNumber) && $0.isASCII }
        if word.count == 20, word.hasPrefix("AKIA") || word.hasPrefix("ASIA"), word.allSatisfy(upperAlphanumeric) { return .cloudAccessKey }
        if word.hasPrefix("ghp_") || word.hasPrefix("github_pat_") { return .token }
        if word.hasPrefix("xoxb-") || word.hasPrefix("xoxp-") || word.hasPrefix("xoxa-") { return .token }
        if word.hasPrefix("sk_live_") || word.hasPrefix("rk_live_") { return .apiKey }
        return nil
    }

    private static func base64URLDecoded(_ text: Substring) -> [UInt8]? {
        var standard = Array(text.utf8).map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0 }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Base64.decode(standard)
    }
}
