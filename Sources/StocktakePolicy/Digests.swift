import Crypto
import StocktakeModel

/// SHA-256 from swift-crypto (CryptoKit on macOS), the one hash implementation the project uses:
/// fingerprints, the HTML report's script hash, and (in the scanner) duplicate content.
public enum Digests {
    public static func sha256Hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in SHA256.hash(data: Array(bytes)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public static func sha256Base64(_ bytes: some Collection<UInt8>) -> String {
        Base64.encode(Array(SHA256.hash(data: Array(bytes))))
    }
}
