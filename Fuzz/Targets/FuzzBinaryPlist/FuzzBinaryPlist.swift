@testable import StocktakePropertyLists

/// The binary plist parser on any bytes: a value or a thrown error, never a trap, an out-of-bounds read,
/// a leak or a hang. Plists come from containers, which are hostile.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if var parser = try? BinaryPropertyListParser(bytes) {
        _ = try? parser.parse()
    }
    return 0
}
