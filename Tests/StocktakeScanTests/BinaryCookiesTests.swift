import Foundation
import StocktakeModel
import TestSupport
import Testing

@testable import StocktakeContent
@testable import StocktakeScan

/// `Cookies.binarycookies`: a real file iOS wrote (from the real-world corpus), files written here in the same
/// layout, and hostile bytes.
@Suite struct BinaryCookiesTests {

    /// One cookie in the file's layout: size, flags, the four string offsets, expiry and creation.
    static func cookie(domain: String, name: String, path: String = "/", value: String, flags: UInt32, expires: Double)
        -> [UInt8]
    {
        var strings: [UInt8] = []
        var offsets: [UInt32] = []
        for text in [domain, name, path, value] {
            offsets.append(UInt32(56 + strings.count))
            strings += Array(text.utf8) + [0]
        }
        var bytes = le(UInt32(56 + strings.count)) + le(0) + le(flags) + le(0)
        for offset in offsets { bytes += le(offset) }
        bytes += le(0) + le(0)
        bytes += withUnsafeBytes(of: expires.bitPattern.littleEndian, Array.init)
        bytes += withUnsafeBytes(of: (expires - 86_400).bitPattern.littleEndian, Array.init)
        return bytes + strings
    }

    static func page(_ cookies: [[UInt8]]) -> [UInt8] {
        var header = [0, 0, 1, 0] + le(UInt32(cookies.count))
        var offset = 8 + cookies.count * 4 + 4
        var body: [UInt8] = []
        for cookie in cookies {
            header += le(UInt32(offset))
            offset += cookie.count
            body += cookie
        }
        return header + [0, 0, 0, 0] + body
    }

    static func file(_ pages: [[UInt8]]) -> [UInt8] {
        var bytes = Array("cook".utf8) + be(UInt32(pages.count))
        for page in pages { bytes += be(UInt32(page.count)) }
        for page in pages { bytes += page }
        return bytes + [0x07, 0x17, 0x20, 0x05, 0, 0, 0, 0]
    }

    static func le(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    static func be(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    @Test(.enabled(if: RealCorpus.enabled, RealCorpus.hint))
    func readsTheFileIOSWrote() throws {
        let sample = try RealCorpus.path("samples/blueowl-Cookies.binarycookies")
        let cookies = try BinaryCookies.parse([UInt8](Data(contentsOf: URL(fileURLWithPath: sample))))
        #expect(cookies.count == 1)
        let cookie = try #require(cookies.first)
        #expect(cookie.domain == ".randomuser.me" && cookie.name == "__cfduid" && cookie.path == "/")
        #expect(cookie.value.count == 43)
        #expect(cookie.expires > cookie.created)
        #expect(CookieSecrets.find(cookies).isEmpty, "Cloudflare's id cookie is no credential")
    }

    @Test func readsFlagsAcrossPagesAndTellsSessionCookiesFromAnalytics() throws {
        // A session id is random (a repeated pattern such as `k3Y9k3Y9…` has the entropy of a word: SecretRandomness).
        let session = "k3Y9pQ7wLm2xRt5vNb8cZs4dHf6gJa1e"
        let bytes = Self.file([
            Self.page([
                Self.cookie(domain: ".example.com", name: "sessionid", value: session, flags: 5, expires: 800_000_000),
                Self.cookie(
                    domain: ".example.com", name: "_ga", value: "GA1.2.1234567890.1600000000", flags: 0,
                    expires: 800_000_000),
            ]),
            Self.page([
                Self.cookie(
                    domain: "api.example.com", name: "__Host-auth_token", value: SensitiveContentTests.jwt, flags: 1,
                    expires: 800_000_000),
                Self.cookie(domain: "example.com", name: "theme", value: "dark", flags: 4, expires: 800_000_000),
                Self.cookie(
                    domain: "example.com", name: "csrftoken", value: String(repeating: "c5rF", count: 8), flags: 1,
                    expires: 800_000_000),
            ]),
        ])
        let cookies = try BinaryCookies.parse(bytes)
        #expect(cookies.map(\.name) == ["sessionid", "_ga", "__Host-auth_token", "theme", "csrftoken"])
        #expect(cookies.map(\.isSecure) == [true, false, true, false, true])
        #expect(cookies.map(\.isHTTPOnly) == [true, false, false, true, false])
        #expect(cookies[0].value == session && cookies[0].expires == 800_000_000)
        let hits = CookieSecrets.find(cookies)
        #expect(
            hits.map(\.place) == ["cookie sessionid for .example.com", "cookie __Host-auth_token for api.example.com"])
        #expect(hits.map(\.length) == [32, SensitiveContentTests.jwt.count])
    }

    @Test func refusesWhatDoesNotFitAndNeverTraps() throws {
        #expect(throws: StoreReadError.self) { try BinaryCookies.parse(Array("cooc".utf8) + [0, 0, 0, 0]) }
        #expect(throws: StoreReadError.self) { try BinaryCookies.parse(Array("cook".utf8) + Self.be(0xFFFF_FFFF)) }
        let bytes = Self.file([Self.page([Self.cookie(domain: "a.b", name: "sid", value: "x", flags: 1, expires: 1)])])
        for length in 0..<bytes.count {
            _ = try? BinaryCookies.parse(Array(bytes.prefix(length)))
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var mutated = bytes
            for _ in 0..<3 {
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            _ = try? BinaryCookies.parse(mutated)
        }
    }
}
