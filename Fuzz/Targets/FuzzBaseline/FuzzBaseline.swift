import Foundation

@testable import StocktakePolicy

/// A baseline file (`--baseline`) on any bytes: entries or a configuration error, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBaseline(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    if let baseline = try? Baseline.parse(bytes, file: "baseline.json") {
        _ = baseline.apply(to: [])
        _ = baseline.json
    }
    return 0
}
