import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeContent
@testable import StocktakePropertyLists
@testable import StocktakeScan

/// Values that look like secrets and are not, and lengths reported as the secret's own.
@Suite struct ContentPrecisionTests {
    static let hex = "3f9c2a7be41d08c5a6f2e9b17d4c0a58"

    /// Facebook documents its client token as shipped in every copy of the app (Info.plist's `FacebookClientToken`):
    /// no credential. The same value under a secret's name still is one.
    @Test func aVendorsDocumentedClientTokenIsNotACredential() {
        let info = PropertyListValue.dictionary([
            "FacebookAppID": .string("1234567890123456"), "FacebookClientToken": .string(Self.hex),
        ])
        #expect(BundleMetadataSecrets.find(in: info).isEmpty)
        let secret = PropertyListValue.dictionary(["ClientSecret": .string(Self.hex)])
        #expect(BundleMetadataSecrets.find(in: secret).map(\.length) == [32])
    }

    /// An app that interpolates an optional writes `Optional("…")`: the length is the token's, not the wrapper's.
    @Test func aWrappersCharactersAreNotCountedInTheLength() {
        let token = "Xk9fQ2LmZp7RtV4wYs1NqW"
        let wrapped = PropertyListValue.dictionary(["accessToken": .string("Optional(\"\(token)\")")])
        #expect(PropertyListSecrets.find(in: wrapped).map(\.length) == [token.count])
        #expect(TextSecrets.find(in: Array("access_token = Optional(\"\(token)\")\n".utf8)).map(\.length) == [22])
    }

    /// A real iOS 6 URL cache (no `isDataOnFS` column) reads: every response, none refused.
    @Test(.enabled(if: RealCorpus.enabled, RealCorpus.hint)) func aRealIOS6URLCacheIsRead() throws {
        let database = try RealCorpus.path(
            "samples/content/flappybird-ios6-ipod/Library/Caches/com.dotgears.flap/Cache.db")
        // Read in place: the database and its -wal are copied to a private folder, nothing is written beside them.
        var responses = 0
        try URLCacheDatabase.read(database: database, meter: ContentMeter()) { _ in responses += 1 }
        #expect(responses >= 361)
    }

    /// The one-pass trigger scan finds each trigger anywhere (first byte, last bytes, between others) and nothing
    /// in text that holds none, as searching for each in turn did.
    @Test func theTriggerScanFindsWhatASearchForEachFinds() {
        var generator = SystemRandomNumberGenerator()
        let plain = Array("0123456789 abcdfghjlmqvwz.,;\n".utf8)
        for trigger in TextSecrets.triggers {
            let filler = (0..<200).map { _ in plain.randomElement(using: &generator)! }
            #expect(TextSecrets.mayHoldSecret(trigger))
            #expect(TextSecrets.mayHoldSecret(filler + trigger))
            #expect(TextSecrets.mayHoldSecret(filler + trigger + filler))
            #expect(!TextSecrets.mayHoldSecret(filler + Array(trigger.dropLast())))
        }
        #expect(!TextSecrets.mayHoldSecret((0..<100_000).map { _ in plain.randomElement(using: &generator)! }))
    }

    /// The scan reads four windows from each eight-byte load and the last few one by one: every trigger is found at
    /// every offset within a load and with every number of bytes after it, and a trigger cut short is found nowhere.
    @Test func theTriggerScanFindsATriggerAtEveryOffsetOfALoad() {
        let filler = UInt8(ascii: "0")
        for trigger in TextSecrets.triggers {
            for before in 0..<12 {
                for after in 0..<12 {
                    let text =
                        [UInt8](repeating: filler, count: before) + trigger + [UInt8](repeating: filler, count: after)
                    let cut =
                        [UInt8](repeating: filler, count: before) + trigger.dropLast()
                        + [UInt8](repeating: filler, count: after)
                    #expect(
                        TextSecrets.mayHoldSecret(text),
                        "\(before) \(String(decoding: trigger, as: UTF8.self)) \(after)")
                    #expect(
                        !TextSecrets.mayHoldSecret(cut),
                        "\(before) \(String(decoding: trigger, as: UTF8.self)) \(after)")
                }
            }
        }
    }

    /// The scan agrees with a search for each trigger in turn on text built to be near misses: triggers, triggers cut
    /// short at either end, their first three bytes, and random bytes, at every offset and length (the scan's last
    /// bytes are read one by one).
    @Test func theTriggerScanAgreesWithASearchForEachOnNearMisses() {
        var generator = SystemRandomNumberGenerator()
        let pieces = TextSecrets.triggers.flatMap {
            [$0, Array($0.dropLast()), Array($0.dropFirst()), Array($0.prefix(3))]
        }
        func search(_ text: [UInt8]) -> Bool {
            TextSecrets.triggers.contains { trigger in
                text.count >= trigger.count
                    && (0...(text.count - trigger.count)).contains {
                        text[$0..<($0 + trigger.count)].elementsEqual(trigger)
                    }
            }
        }
        var found = 0
        for _ in 0..<20_000 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                if Bool.random(using: &generator) {
                    text += pieces.randomElement(using: &generator)!
                } else {
                    text.append(UInt8.random(in: 0...255, using: &generator))
                }
            }
            let expected = search(text)
            found += expected ? 1 : 0
            #expect(TextSecrets.mayHoldSecret(text) == expected, "\(text)")
        }
        #expect(found > 1_000)
    }
}
