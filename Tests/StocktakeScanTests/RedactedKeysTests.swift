import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeContent
@testable import StocktakeScan

/// Issue 41, 19: Info.plist keys that are tokens are shown by their shape, and two tokens of one length share it:
/// one entry replaced the other in the redacted dictionary. Every entry stays, numbered, the same way every time.
@Suite struct RedactedKeysTests {
    /// `count` random token-shaped keys of 32 characters (the kind `redacted` replaces).
    static func tokens(_ count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var tokens: [String] = []
        while tokens.count < count {
            let token = String((0..<32).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            if SecretRandomness.redacted(token) != token { tokens.append(token) }
        }
        return tokens
    }

    @Test(arguments: [2, 5, 12] as [Int])
    func everyTokenKeyKeepsItsEntry(_ count: Int) throws {
        var entries: [String: PropertyListValue] = ["<token, 32 chars>": .string("plain")]
        for (index, token) in Self.tokens(count, seed: UInt64(count)).enumerated() {
            entries[token] = .string("value \(index)")
        }
        guard case .dictionary(let shown) = BundleMetadataSecrets.redacted(.dictionary(entries)) else {
            Issue.record("not a dictionary")
            return
        }
        #expect(shown.count == entries.count)
        #expect(shown["<token, 32 chars>"] == .string("plain"), "a plain key keeps its name")
        let values = Set(
            shown.values.compactMap { value -> String? in
                if case .string(let text) = value { return text }
                return nil
            })
        #expect(values == Set(entries.values.compactMap { if case .string(let text) = $0 { text } else { nil } }))
        #expect(BundleMetadataSecrets.redacted(.dictionary(entries)) == .dictionary(shown), "the same every time")
        #expect(!shown.keys.contains { key in entries.keys.contains { $0 == key && $0 != "<token, 32 chars>" } })
    }
}
