@testable import StocktakePropertyLists

/// The XML plist parser (no DTD, no entities, UTF-8/UTF-16/Latin-1 text) on any bytes: a value or
/// a thrown error, never a trap, an out-of-bounds read, a leak or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? XMLPropertyListDecoder.parse(bytes)
    return 0
}
