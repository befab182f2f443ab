import Foundation

@testable import StocktakeScan

/// An app's main executable as `stocktake simulators` reads its entitlements: any bytes as a thin or fat Mach-O,
/// its load commands walked once, one entitlements section or code signature blob parsed. Entitlements, nil or a
/// clear error: no crash, no leak, no hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMachO(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard
        FileManager.default.createFile(
            atPath: executablePath, contents: Data(UnsafeRawBufferPointer(start: data, count: size)))
    else { return 0 }
    _ = try? MachOEntitlements.read(executable: executablePath)
    return 0
}

/// One file per fuzzing process, rewritten for every input.
private let executablePath = NSTemporaryDirectory() + "/stocktake-fuzz-macho-\(getpid())"
