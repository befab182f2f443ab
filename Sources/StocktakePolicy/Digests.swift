import Crypto
import StocktakeModel

/// SHA-256 from swift-crypto (CryptoKit on macOS), the one hash implementation the project uses:
/// fingerprints, the HTML report's script hash, and (in the scanner) duplicate content.
public enum Digests {
    public static func sha256Hex(_ bytes: some Collection<UInt8>) -> String {
        Hex.lowercase(SHA256.hash(data: Array(bytes)))
    }

    public static func sha256Base64(_ bytes: some Collection<UInt8>) -> String {
        Base64.encode(Array(SHA256.hash(data: Array(bytes))))
    }
}
