import StocktakeModel

/// Secrets recognised by their name (`password`, `accessToken`) and a value that fits it. Precision first: names
/// that only mention a secret (`tokenCount`) and values that cannot be one (booleans, dates, UUIDs) are not findings.
enum SecretNames {
    /// What a name says it holds, judged on the name lowercased without `_`, `-`, `.` and spaces.
    static func kind(ofName name: String) -> SensitiveItem.Kind? {
        let word = String(name.lowercased().filter { $0.isLetter || $0.isNumber })
        let words = Self.words(name)
        // Plural words count as their singular (`rules` → `rule`), nothing shorter.
        guard !word.isEmpty,
            !words.contains(where: {
                mentionsOnly.contains($0) || ($0.hasSuffix("s") && mentionsOnly.contains(String($0.dropLast())))
            })
        else { return nil }
        if pushTokenNames.contains(where: word.contains) { return nil }
        if ["password", "passwd", "pwd", "passphrase"].contains(where: word.contains) { return .password }
        if word.hasSuffix("pin") || word.contains("pincode") || word.contains("passcode") { return .pin }
        if ["privatekey", "secretkey", "signingkey"].contains(where: word.contains) { return .privateKey }
        if ["secretaccesskey", "accesskeysecret"].contains(where: word.contains) { return .cloudAccessKey }
        if ["apikey", "clientsecret", "appsecret", "consumersecret", "apisecret"].contains(where: word.contains) {
            return .apiKey
        }
        if word.contains("authorization") { return .authorizationHeader }
        if ["token", "jwt", "secret", "sessionkey", "authkey"].contains(where: word.hasSuffix) || word == "sid"
            || word.contains("sessionid") || word.contains("credential")
        {
            return .token
        }
        return nil
    }

    /// The secret `value` stored under `name` is: the name's kind, or the value's own shape (a JWT, a Stripe key).
    static func secret(_ value: String, storedUnder name: String) -> (kind: SensitiveItem.Kind, length: Int)? {
        guard let kind = kind(ofName: name), let length = secretLength(value, as: kind, name: name) else { return nil }
        return SecretShapes.find(in: Substring(value)).first ?? (kind, length)
    }

    /// The value's length when `value`, stored under a name (`name`) of `kind`, can be that secret; nil otherwise.
    /// Tokens and keys need 16 or more characters, two character classes and the entropy their length calls for.
    static func secretLength(_ value: String, as kind: SensitiveItem.Kind, name: String? = nil) -> Int? {
        let trimmed = unwrapped(value.trimmingWhitespace())
        guard !trimmed.isEmpty, !placeholders.contains(trimmed.lowercased()), !SecretRandomness.isTemplate(trimmed),
            !SecretRandomness.isPathOrPlainURL(trimmed),
            !(name.map { SecretRandomness.echoes(trimmed, name: $0) } ?? false)
        else { return nil }
        switch kind {
        case .pin:
            guard (4...12).contains(trimmed.count), trimmed.allSatisfy(\.isNumber) || trimmed.count >= 6 else {
                return nil
            }
        case .password:
            guard trimmed.count >= 4, !trimmed.allSatisfy(\.isNumber) || trimmed.count >= 6, !isConstant(trimmed) else {
                return nil
            }
        default:
            guard trimmed.count >= 16, !PublicValues.isPublic(trimmed), !SecretRandomness.isUUID(trimmed),
                variety(trimmed) >= 2, !SecretRandomness.isNotSecret(trimmed, name: name)
            else { return nil }
            if SecretRandomness.isHex(trimmed) {
                guard trimmed.count >= SecretRandomness.minimumHexLength,
                    SecretRandomness.entropy(trimmed) >= SecretRandomness.hexEntropyFloor
                else { return nil }
            } else if SecretShapes.prefixedKind(Substring(trimmed)) == nil, !SecretShapes.isJWT(Substring(trimmed)) {
                guard SecretRandomness.entropy(trimmed) >= SecretRandomness.namedEntropyFloor(length: trimmed.count)
                else { return nil }
            }
        }
        return trimmed.count
    }

    /// The value inside `Optional("…")`, which an app that interpolates an optional writes.
    static func unwrapped(_ value: String) -> String {
        guard value.hasPrefix("Optional("), value.hasSuffix(")") else { return value }
        let inner = value.dropFirst("Optional(".count).dropLast()
        guard inner.count >= 2, inner.hasPrefix("\""), inner.hasSuffix("\"") else { return String(inner) }
        return String(inner.dropFirst().dropLast())
    }

    /// Code's words (`PASSWORD_REQUIRED`, `kPasswordKey`, `com.example.password`), not a password someone chose.
    private static func isConstant(_ text: String) -> Bool {
        let upperSnake =
            text.contains("_") && text.allSatisfy { ($0.isUppercase || $0.isNumber || $0 == "_") && $0.isASCII }
        let dotted = text.split(separator: ".").count >= 3 && SecretRandomness.isIdentifier(text)
        let prefixedConstant =
            text.count >= 6 && text.hasPrefix("k") && text.dropFirst().first?.isUppercase == true
            && SecretRandomness.isIdentifier(text)
        return upperSnake || dotted || prefixedConstant
    }

    /// `passwordRulesShown` → password, rules, shown; `api_key` → api, key; `URLToken` → url, token.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if let previous, character.isUppercase, previous.isLowercase || previous.isNumber, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }
    }

    /// Words of names that describe a secret's handling, not the secret.
    private static let mentionsOnly: Set<String> = [
        "count", "rule", "shown", "enabled", "expir", "type", "length", "date", "time", "url", "hint", "policy",
        "required", "reset", "changed", "saved", "remember", "should", "prompt", "did", "has", "is", "last", "attempt",
        "strength", "visible", "version", "scope", "label", "placeholder", "field", "min", "max", "format", "provider",
        "flag", "expires", "expiry", "expiration", "created", "updated", "valid", "needs", "use", "show", "hide",
        "hidden", "public",
        // A checksum or digest of public data is no secret (a password hash is: it can be cracked).
        "checksum", "digest", "sha1", "sha256", "md5", "etag", "fingerprint", "path", "name",
    ]

    /// Device and push tokens identify an install to a push service; they unlock nothing.
    private static let pushTokenNames = [
        "devicetoken", "pushtoken", "apnstoken", "apnsdevicetoken", "fcmtoken", "voiptoken", "registrationtoken",
    ]

    private static let placeholders: Set<String> = [
        "true", "false", "yes", "no", "null", "nil", "none", "(null)", "undefined", "password", "******", "********",
    ]

    /// How many of lowercase, uppercase, digits and symbols the text mixes.
    private static func variety(_ text: String) -> Int {
        [
            text.contains(where: \.isLowercase), text.contains(where: \.isUppercase), text.contains(where: \.isNumber),
            text.contains { !$0.isLetter && !$0.isNumber },
        ].filter { $0 }.count
    }
}
