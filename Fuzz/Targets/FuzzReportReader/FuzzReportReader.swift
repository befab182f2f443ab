import StocktakeDiff

@testable import StocktakeReport

/// The report reader (`stocktake diff`, the nightly job) on any bytes: a snapshot or an error naming the
/// problem. A report that reads is diffed against itself and written as text, as `stocktake diff` would.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReportReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let snapshot = try? ReportReader.read(bytes: bytes, name: "report.json") else { return 0 }
    let diff = ReportDiff.compute(old: snapshot, new: snapshot)
    _ = try? DiffWriter.render(diff, gates: [], format: .text, options: DiffRenderOptions())
    return 0
}
