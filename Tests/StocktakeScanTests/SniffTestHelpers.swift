import StocktakeContent
import StocktakeModel
import StocktakeScan

/// Bytes from a hex string; spaces are ignored. Test fixtures only.
func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd number of hex digits")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

func sniffName(_ name: String, size: Int64 = 1000) -> ContentKind? {
    Array(name.utf8).withUnsafeBufferPointer { ContentSniffer.kind(name: $0, size: size) }
}

func sniffName(bytes name: [UInt8], size: Int64 = 1000) -> ContentKind? {
    name.withUnsafeBufferPointer { ContentSniffer.kind(name: $0, size: size) }
}

func sniffContent(_ prefix: [UInt8], name: String = "file") -> ContentKind {
    prefix.withUnsafeBytes { bytes in
        Array(name.utf8).withUnsafeBufferPointer { ContentSniffer.kind(prefix: bytes, name: $0) }
    }
}

func withName<R>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    Array(name.utf8).withUnsafeBufferPointer(body)
}
