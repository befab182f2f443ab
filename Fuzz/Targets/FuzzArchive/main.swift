import Foundation
import StocktakeScan

/// Archives as `stocktake audit EXPORT` reads them: any bytes, as a file, through libarchive, the first pass,
/// the container search and the inventory; then the hashing pass. Only a clear error or an inventory may come
/// back: no crash, no leak, no hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard
        FileManager.default.createFile(
            atPath: archivePath, contents: Data(UnsafeRawBufferPointer(start: data, count: size)))
    else { return 0 }
    guard let input = try? ArchiveInput.read(path: archivePath) else { return 0 }
    precondition(input.container.allocatedBytesEstimated, "archive sizes are estimates")
    _ = try? input.findDuplicates(minimumBytes: 1)
    return 0
}

/// One file per fuzzing process, rewritten for every input.
private let archivePath = NSTemporaryDirectory() + "/stocktake-fuzz-archive-\(getpid())"
