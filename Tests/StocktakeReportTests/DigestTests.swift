import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeReport
import TestSupport
import Testing

@Suite struct DigestTests {
    /// FIPS 180-4 example vectors (NIST CSVP "SHA-256" examples), also what `sha256sum` prints.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func knownVectors(message: String, expected: String) {
        #expect(Digests.sha256Hex(Array(message.utf8)) == expected)
    }

    @Test func oneMillionLetterA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(Digests.sha256Hex(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding boundaries (55/56 bytes fit one block or spill into two), recorded with
    /// `sha256sum` on bytes `(i * 7 + 3) % 256`.
    @Test(arguments: [
        (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
        (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
        (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
        (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
        (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
        (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
        (120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        #expect(Digests.sha256Hex(Self.pattern(length)) == expected)
    }

    @Test func binaryInput() {
        let message: [UInt8] = [0xFF, 0xFE, 0x00, 0x01] + Array("<script>".utf8)
        #expect(Digests.sha256Hex(message) == "2fe8ec71adfd572675b292a28fe81c7b26b380d486771f4df764e8cb8cb8aef7")
    }

    /// The system's SHA-256 command: coreutils `sha256sum` (Linux), else Perl's `shasum -a 256` (in every macOS).
    /// Both print the digest in hex first.
    static let systemSHA256: [String]? = [["/usr/bin/sha256sum"], ["/usr/bin/shasum", "-a", "256"]].first {
        OutsideTools.has($0[0])
    }

    /// Every length from 0 to 200 bytes against the system's `sha256sum` (coreutils) or `shasum -a 256` (macOS).
    @Test(
        .enabled(
            if: systemSHA256 != nil || OutsideTools.required,
            "needs /usr/bin/sha256sum or /usr/bin/shasum; \(OutsideTools.requirementHint)"))
    func agreesWithSha256sum() throws {
        let command = try #require(Self.systemSHA256, "neither /usr/bin/sha256sum nor /usr/bin/shasum is installed")
        for length in 0...200 {
            let message = Self.pattern(length)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data(message))
            try input.fileHandleForWriting.close()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let expected = String(printed.prefix(64))
            #expect(Digests.sha256Hex(message) == expected, "length \(length)")
        }
    }

    /// RFC 4648 §10 test vectors.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func base64Vectors(input: String, expected: String) {
        #expect(Base64.encode(Array(input.utf8)) == expected)
    }

    @Test func base64AgreesWithFoundation() {
        for length in 0...70 {
            let bytes = Self.pattern(length).map { $0 ^ 0xA5 }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString(), "length \(length)")
        }
    }

    @Test func cspSourceOfAKnownScript() {
        // `echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64`
        #expect(Digests.sha256Base64(Array("alert(1)".utf8)) == "bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=")
    }

    private static func pattern(_ length: Int) -> [UInt8] {
        (0..<length).map { UInt8(($0 * 7 + 3) % 256) }
    }
}
