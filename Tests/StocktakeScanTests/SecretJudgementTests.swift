import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeContent
@testable import StocktakeScan

/// How a value is judged: shape and randomness, both sides of every threshold docs/policy.md gives, the public
/// values table, names shown by their shape, and recall on planted real-shaped secrets.
@Suite struct SecretJudgementTests {
    // MARK: - A word is not a secret

    @Test(arguments: [
        ("accessToken", "accessToken", "the key's own name"),
        ("authToken", "kAuthTokenStorageKey", "an identifier holding the name"),
        ("api_key", "currencyArrayKeyValue", "camelCase words"),
        ("refresh_token", "REFRESH_TOKEN_STORAGE", "an enum-like constant"),
        ("sessionToken", "com.example.session.storage", "a dotted identifier"),
        ("clientSecret", "${CLIENT_SECRET_VALUE}", "a template"),
        ("apiKey", "<your api key goes here>", "a template"),
        ("apiKey", "{{ api_key_placeholder }}", "a template"),
        ("accessToken", "Bearer %@ for the request", "a format string"),
        ("apiKey", "YOUR_API_KEY_HERE_12345", "a stopword"),
        ("accessToken", "abcdefghijklmnopqrstuvwxyz", "a run of the alphabet"),
        ("accessToken", "0123456789012345678901", "a run of digits"),
        ("accessToken", "aaaaaaaaaaaaaaaaaaaaaaaa", "one repeated character"),
        ("apiKey", "/var/mobile/Containers/Data/Application/ABC/Library/Caches", "a path"),
        ("apiKey", "https://api.example.com/v2/keys?page=2", "a URL without credentials"),
        ("accessToken", "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "a UUID"),
        ("accessToken", "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "a labelled hash"),
        (
            "apiKeyChecksum", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "a checksum, by its name"
        ),
    ])
    func wordsAndIdentifiersAreNotSecrets(name: String, value: String, why: String) {
        let judged = SecretNames.kind(ofName: name).flatMap { SecretNames.secretLength(value, as: $0, name: name) }
        #expect(judged == nil, "\(why)")
    }

    @Test(arguments: [
        ("PASSWORD_REQUIRED", false), ("com.example.app.password", false), ("kPasswordKeychainKey", false),
        ("password", false),
        ("correct-horse", true), ("hunter2!", true), ("sunshine", true),
    ])
    func passwordsAreWordsButNotConstants(value: String, isSecret: Bool) {
        #expect((SecretNames.secretLength(value, as: .password, name: "password") != nil) == isSecret, "\(value)")
    }

    // MARK: - Thresholds, both sides

    /// Hex: 32 characters at entropy 3.0 (detect-secrets' hex limit).
    @Test func hexThresholds() {
        let random32 = "9b1f3c7e2a8d4f60b5e9c1a7d3f2e8b4"
        #expect(SecretRandomness.entropy(random32) >= SecretRandomness.hexEntropyFloor)
        #expect(SecretNames.secretLength(random32, as: .token, name: "sessionToken") == 32)
        #expect(
            SecretNames.secretLength(String(random32.dropLast()), as: .token, name: "sessionToken") == nil,
            "31 hex characters")
        let lowEntropy = "00000000000000000000000011111abc"  // 32 hex characters, entropy below 3.0
        #expect(SecretRandomness.entropy(lowEntropy) < SecretRandomness.hexEntropyFloor)
        #expect(SecretNames.secretLength(lowEntropy, as: .token, name: "sessionToken") == nil)
    }

    /// Other characters: 3.3 below 20 characters, 3.5 from 20 on.
    @Test func entropyThresholds() {
        #expect(SecretRandomness.namedEntropyFloor(length: 16) == 3.3)
        #expect(SecretRandomness.namedEntropyFloor(length: 19) == 3.3)
        #expect(SecretRandomness.namedEntropyFloor(length: 20) == 3.5)
        let above = "Xk9fQ2LmZp7RtV4wYs1N"  // 20 distinct characters: log2(20) = 4.32
        #expect(SecretNames.secretLength(above, as: .token, name: "token") == 20)
        let below = "a1a1a1a1b2b2b2b2c3c3"  // 20 characters, 6 symbols: 2.57
        #expect(SecretRandomness.entropy(below) < 3.5)
        #expect(SecretNames.secretLength(below, as: .token, name: "token") == nil)
        // Just either side of 3.5 at 20 characters.
        let just = "aAbBcCdDeEfG11112222"  // 3.52
        let justBelow = "aAbBcCdDeE1111222333"  // 3.45
        #expect(SecretRandomness.entropy(just) >= 3.5 && SecretRandomness.entropy(justBelow) < 3.5)
        #expect(SecretNames.secretLength(just, as: .token, name: "token") == 20)
        #expect(SecretNames.secretLength(justBelow, as: .token, name: "token") == nil)
        // Length: 16 characters pass, 15 do not.
        #expect(SecretNames.secretLength("Q7wErT9yUiOp3AsD", as: .token, name: "token") == 16)
        #expect(SecretNames.secretLength("Q7wErT9yUiOp3As", as: .token, name: "token") == nil)
    }

    /// Names (and values with no name vouching): the 0.5th percentile of random base62 at their length, up to 4.5.
    @Test func unnamedThresholds() {
        #expect(SecretRandomness.unnamedEntropyFloor(length: 16) == 3.33)
        #expect(abs(SecretRandomness.unnamedEntropyFloor(length: 28) - 3.99) < 0.01)
        #expect(SecretRandomness.unnamedEntropyFloor(length: 200) == 4.5)
        #expect(SecretRandomness.looksLikeToken("k3J9xQ2mW8vL5nR1tY7bZ4cF6hD0sG2a"))
        #expect(!SecretRandomness.looksLikeToken("k3J9xQ2mW8vL5nR1tY7"), "19 characters")
        #expect(!SecretRandomness.looksLikeToken("WebKitLocalStorageDatabasePathPreferenceKey"))
        #expect(!SecretRandomness.looksLikeToken("google_stats_a1517e7f56390cf"), "words and a 15-character slot id")
        #expect(SecretRandomness.looksLikeToken("session_k3J9xQ2mW8vL5nR1tY7bZ4cF6hD0sG2a"), "a word and a token")
        #expect(!SecretRandomness.looksLikeToken("ab12ab12ab12ab12ab12ab12ab12"), "entropy 2.0")
    }

    // MARK: - Public values

    @Test(arguments: [
        ("apiKey", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
        ("stripeKey", "pk_live_51H8nLwKx2yZp4Qr7StUvWxYz0123abcdEFGH"),
        ("stripeKey", "pk_test_51H8nLwKx2yZp4Qr7StUvWxYz0123abcdEFGH"),
        ("X-CRASHLYTICS-DEVELOPER-TOKEN", "77f0789d8e230eccdb4b99b82dccd78d47f9b604"),
        ("X-CRASHLYTICS-DEVELOPER-TOKEN", "470fa2b4ae81cd56ecbcda9735803434cec591fa"),
        ("mapboxAccessToken", "pk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjazBxyz123456789abcdef"),
        ("branch_key", "key_live_kaFuWw8WvY7yn1d9yYiP8gokwqjV0Swt"),
    ])
    func publicValuesAreNotSecrets(name: String, value: String) {
        let kind = SecretNames.kind(ofName: name) ?? .apiKey
        #expect(SecretNames.secretLength(value, as: kind, name: name) == nil, "\(value.prefix(8))")
        #expect(PublicValues.isPublic(value))
    }

    @Test func everyPublicValueHasItsSource() throws {
        let source = try String(
            contentsOfFile: Repository.path("Sources/StocktakeContent/Secrets/PublicValues.swift"), encoding: .utf8
        )
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces).hasPrefix("(\"") {
            // Each entry follows a comment line citing its public source (or continues a group that does).
            let above = lines[..<index].reversed().first { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("(\"") }
            #expect(above?.contains("//") == true, "\(line)")
        }
        #expect(source.contains("https://docs.stripe.com/keys") && source.contains("FIRCLSConstants.m"))
    }

    @Test func flurrysProjectKeyIsPublicButTheAppsOwnFieldIsNot() throws {
        func archive(_ className: String) -> PropertyListValue {
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$top": .dictionary(["root": .uid(1)]),
                "$objects": .array([
                    .string("$null"), .dictionary(["apiKey": .uid(2), "$class": .uid(3)]),
                    .string("QWERTY12345ZXCVB6789"),
                    .dictionary([
                        "$classname": .string(className),
                        "$classes": .array([.string(className), .string("NSObject")]),
                    ]),
                ]),
            ])
        }
        #expect(PropertyListSecrets.find(in: archive("FlurrySession")).isEmpty)
        #expect(PropertyListSecrets.find(in: archive("AppSession")).map(\.place) == ["key apiKey"])
    }

    // MARK: - Shapes

    @Test func passwordsInURLs() {
        #expect(
            SecretShapes.find(in: "postgres://admin:s3cr3tPassw0rd@db.example.com:5432/app").map(\.kind) == [.password])
        #expect(
            SecretShapes.find(in: "https://3f2a9e@o12345.ingest.sentry.io/67890").isEmpty,
            "a DSN has a user, no password")
        #expect(SecretShapes.find(in: "https://user:${PASSWORD}@example.com/").isEmpty, "a template")
    }

    /// A value under a secret's name is named by its own shape when it has one, and by the name otherwise, the same
    /// way in a plist, a text file and local storage's judgement.
    @Test func aValueIsNamedByItsShapeWhereverItIsStored() {
        var generator = SeededGenerator(seed: 43)
        let stripe = "sk_live_" + PlantedSecrets.random(PlantedSecrets.alnum, 24, using: &generator)
        let plain = PlantedSecrets.random(PlantedSecrets.alnum, 24, using: &generator)
        for (value, kind) in [(stripe, SensitiveItem.Kind.apiKey), (plain, .password)] {
            let judged = SecretNames.secret(value, storedUnder: "password")
            #expect(judged?.kind == kind && judged?.length == value.count)
            let inPlist = PropertyListSecrets.find(in: .dictionary(["password": .string(value)]))
            #expect(inPlist == [PropertyListSecrets.Hit(place: "key password", kind: kind, length: value.count)])
            let inText = TextSecrets.find(in: Array("password = \(value)\n".utf8))
            #expect(inText == [PropertyListSecrets.Hit(place: "line 1", kind: kind, length: value.count)])
        }
        #expect(SecretNames.secret(plain, storedUnder: "passwordRulesShown") == nil, "a name that only mentions one")
    }

    // MARK: - Names shown by their shape

    @Test func secretShapedNamesAreRedacted() {
        let token = "k3J9xQ2mW8vL5nR1tY7bZ4cF6hD0sG2a"
        #expect(SecretRandomness.redacted("key prefs.\(token).enabled") == "key prefs.<token, 32 chars>.enabled")
        #expect(
            SecretRandomness.redacted("cookie \(token) for .example.com") == "cookie <token, 32 chars> for .example.com"
        )
        #expect(SecretRandomness.redacted("key ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5") == "key <token, 40 chars>")
        #expect(
            SecretRandomness.redacted("key \(SensitiveContentTests.jwt)")
                == "key <JWT, \(SensitiveContentTests.jwt.count) chars>")
        #expect(SecretRandomness.redacted("key account.password") == "key account.password")
        #expect(
            SecretRandomness.redacted("key WebKitLocalStorageDatabasePathPreferenceKey")
                == "key WebKitLocalStorageDatabasePathPreferenceKey")
        #expect(
            SecretRandomness.redacted(
                "response from api.example.com (fsCachedData/6F9619FF-8B86-D011-B42D-00CF4FC964FF), line 3")
                == "response from api.example.com (fsCachedData/6F9619FF-8B86-D011-B42D-00CF4FC964FF), line 3")
        // Every reader records its place through a hit: the redaction holds for all of them.
        let hit = PropertyListSecrets.Hit(place: "local storage key \(token)", kind: .token, length: 40)
        #expect(hit.place == "local storage key <token, 32 chars>")
        let plist = PropertyListValue.dictionary([
            token: .dictionary(["accessToken": .string("Zq1Xw2Ce3Vr4Bt5Ny6MuLo8P")])
        ])
        #expect(PropertyListSecrets.find(in: plist).map(\.place) == ["key <token, 32 chars>.accessToken"])
    }

    // MARK: - The app bundle's metadata

    @Test func infoPlistIsShownByShapeAndItsSecretsFound() {
        let token = "k3J9xQ2mW8vL5nR1tY7bZ4cF6hD0sG2a"
        let info = PropertyListValue.dictionary([
            "CFBundleIdentifier": .string("com.example.app"),
            "StripeSecretKey": .string("sk_live_4eC39HqLyjWDarjtT1zdp7dcQz8Lm2"),
            "GMSApiKey": .string("AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
            "Backend": .dictionary(["ServerPassword": .string("Serv3rPassw0rd!"), token: .bool(true)]),
            "Config": .data(Array(#"{"client_secret": "Zq1Xw2Ce3Vr4Bt5Ny6MuLo8P"}"#.utf8)),
        ])
        let found = BundleMetadataSecrets.find(in: info)
        #expect(found.map(\.place).sorted() == ["key Backend.ServerPassword", "key Config", "key StripeSecretKey"])
        #expect(found.first { $0.place == "key StripeSecretKey" }?.kind == .apiKey, "named by its shape")
        let shown = BundleMetadataSecrets.redacted(info)
        #expect(shown["CFBundleIdentifier"]?.stringValue == "com.example.app")
        #expect(shown["GMSApiKey"]?.stringValue == "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "a public key stays")
        #expect(shown["StripeSecretKey"]?.stringValue == "<API key, 38 chars>")
        #expect(shown["Backend"]?["ServerPassword"]?.stringValue == "<password, 15 chars>")
        #expect(shown["Backend"]?.dictionaryValue?.keys.sorted() == ["<token, 32 chars>", "ServerPassword"])
        #expect(
            shown["Config"]?.stringValue == "<API key, 24 chars>", "data holding a secret is no longer shown as bytes")
    }

    // MARK: - Planted real-shaped secrets

    /// Real-shaped secrets, generated: recall of 90% or more under their usual names, and of every shaped one
    /// under a neutral name.
    @Test func recallOnPlantedSecrets() {
        var generator = SeededGenerator(seed: 0x5EC12E7)
        let planted = PlantedSecrets.generate(count: 40, using: &generator)
        var found = 0
        var missed: [String] = []
        for secret in planted {
            let plist = PropertyListValue.dictionary([secret.name: .string(secret.value)])
            let text = "\(secret.name)=\(secret.value)\n"
            let inPlist = !PropertyListSecrets.find(in: plist).isEmpty
            let inText = !TextSecrets.find(in: Array(text.utf8)).isEmpty
            if inPlist && inText {
                found += 1
            } else {
                missed.append("\(secret.family) plist:\(inPlist) text:\(inText)")
            }
        }
        let recall = Double(found) / Double(planted.count)
        print("planted secrets: \(found) of \(planted.count) found in a plist and a text file")
        #expect(recall >= 0.9, "recall \(recall): missed \(missed)")
        #expect(planted.count >= 400)
    }
}

/// Real-shaped secrets of the families scanners know, with the names apps store them under.
enum PlantedSecrets {
    struct Secret {
        let family: String
        let name: String
        let value: String
    }

    static let upper = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), lower = Array("abcdefghijklmnopqrstuvwxyz"),
        digits = Array("0123456789")
    static let alnum = upper + lower + digits, hex = Array("0123456789abcdef"), base64 = alnum + Array("+/")
    static let urlSafe = alnum + Array("-_")

    static func random(_ alphabet: [Character], _ count: Int, using generator: inout SeededGenerator) -> String {
        String((0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }

    static func base64URL(_ text: String) -> String {
        String(Base64.encode(Array(text.utf8)).compactMap { $0 == "=" ? nil : $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    static func generate(count: Int, using g: inout SeededGenerator) -> [Secret] {
        var secrets: [Secret] = []
        for index in 0..<count {
            func r(_ alphabet: [Character], _ length: Int) -> String { random(alphabet, length, using: &g) }
            let header = base64URL(#"{"alg":"HS256","typ":"JWT"}"#)
            let payload = base64URL(#"{"sub":"\#(r(digits, 10))","iat":1700000000}"#)
            secrets += [
                Secret(family: "aws", name: "awsAccessKeyId", value: "AKIA" + r(upper + digits, 16)),
                Secret(family: "aws secret", name: "aws_secret_access_key", value: r(base64, 40)),
                Secret(family: "github", name: "githubToken", value: "ghp_" + r(alnum, 36)),
                Secret(
                    family: "slack", name: "slackToken", value: "xoxb-\(r(digits, 12))-\(r(digits, 13))-\(r(alnum, 24))"
                ),
                Secret(family: "stripe", name: "stripeSecretKey", value: "sk_live_" + r(alnum, 24 + index % 76)),
                Secret(family: "jwt", name: "idToken", value: "\(header).\(payload).\(r(urlSafe, 43))"),
                Secret(family: "bearer", name: "Authorization", value: "Bearer " + r(urlSafe, 20 + index % 40)),
                Secret(
                    family: "url password", name: "databaseURL",
                    value: "postgres://app:\(r(alnum, 12 + index % 12))@db.example.com/app"),
                Secret(family: "base64", name: "refreshToken", value: r(base64, 24 + index % 64)),
                Secret(family: "hex", name: "sessionToken", value: r(hex, 32 + index % 33)),
                Secret(family: "password", name: "password", value: r(alnum, 10)),
            ]
        }
        return secrets
    }
}
