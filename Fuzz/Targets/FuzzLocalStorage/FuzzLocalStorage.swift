import Foundation
import StocktakePropertyLists

@testable import StocktakeContent

/// A SQLite store as the content checks read it (WebKit's local storage among them): any bytes as the file,
/// opened read-only and immutable, its schema, columns and `ItemTable` rows read under the meter. Hits, or an
/// outcome saying why it was not read: no crash, no leak, no hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLocalStorage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard
        FileManager.default.createFile(
            atPath: storePath, contents: Data(UnsafeRawBufferPointer(start: data, count: size)))
    else { return 0 }
    _ = DatabaseSecrets.find(database: storePath, meter: ContentMeter())
    return 0
}

/// One file per fuzzing process, rewritten for every input.
private let storePath = NSTemporaryDirectory() + "/stocktake-fuzz-localstorage-\(getpid()).localstorage"
