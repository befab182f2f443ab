import StocktakePolicy

/// `stocktake.yml` on any bytes, decoded as the loader does: a configuration and its policy, or an error
/// naming the line, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let configuration = try? PolicyConfiguration.parse(text, file: "stocktake.yml") {
        _ = try? Policy(configuration: configuration)
    }
    return 0
}
