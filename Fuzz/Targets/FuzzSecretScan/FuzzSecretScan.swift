import StocktakePropertyLists

@testable import StocktakeContent

/// The secret finders on any bytes: as a text file the app wrote, and as a property list (NSKeyedArchiver
/// graphs and nested archives included). Hits or none, never a trap or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecretScan(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = TextSecrets.find(in: bytes)
    if let value = try? PropertyListReader.parse(bytes) { _ = PropertyListSecrets.find(in: value) }
    return 0
}
