import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the system's libarchive loads as Stocktake loads it (the file `STOCKTAKE_LIBARCHIVE` names, else the
/// system's). Archive tests need it: without it they skip with a message on a developer's machine and fail in CI
/// (`OutsideTools.required`), like every outside tool.
package enum LibArchiveProbe {
    package static let available: Bool = {
        let named = ProcessInfo.processInfo.environment["STOCKTAKE_LIBARCHIVE"].flatMap { $0.isEmpty ? nil : [$0] }
        #if canImport(Darwin)
            let files = named ?? ["/usr/lib/libarchive.2.dylib"]
        #else
            let files = named ?? ["libarchive.so.13", "libarchive.so"]
        #endif
        return files.contains { file in
            guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else { return false }
            dlclose(handle)
            return true
        }
    }()

    /// For `.enabled(if: LibArchiveProbe.enabled, LibArchiveProbe.hint)`: runs where the library loads, and in CI.
    package static let enabled = available || OutsideTools.required

    package static let hint: Comment =
        "needs the system's libarchive (apt-get install libarchive13); \(OutsideTools.requirementHint)"
}
