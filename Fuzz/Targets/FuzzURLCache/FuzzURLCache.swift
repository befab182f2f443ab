import Foundation
import StocktakePropertyLists

@testable import StocktakeContent

/// URLCache's `Cache.db` as the content checks read it: any bytes as the database (copied, opened, its rows,
/// request and response plists and bodies read under the meter), then the cache judgement. Responses or a clear
/// error: no crash, no leak, no hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLCache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard
        FileManager.default.createFile(
            atPath: folder + "/Cache.db", contents: Data(UnsafeRawBufferPointer(start: data, count: size)))
    else { return 0 }
    var finder = CacheSecrets()
    try? URLCacheDatabase.read(database: folder + "/Cache.db", meter: ContentMeter()) { finder.add($0) }
    _ = finder.hits
    return 0
}

/// One folder per fuzzing process, its `Cache.db` rewritten for every input.
private let folder: String = {
    let path = NSTemporaryDirectory() + "/stocktake-fuzz-urlcache-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()
