import StocktakeContent

/// AppleDouble sidecars as the walker reads them: the first 64 KiB, with the file's full size. Every value
/// range handed back must lie inside the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppleDouble(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let head = UnsafeRawBufferPointer(start: data, count: min(size, AppleDouble.attributeHeaderLimit))
    guard AppleDouble.hasHeader(head) else { return 0 }
    for fileSize in [size, nil] {
        guard let attributes = try? AppleDouble.attributes(in: head, fileSize: fileSize) else { continue }
        for attribute in attributes {
            precondition(
                attribute.valueRange.lowerBound >= 0 && attribute.valueRange.upperBound <= size,
                "value outside the file")
        }
    }
    return 0
}
