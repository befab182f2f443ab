import TestSupport
import Testing

@testable import StocktakeScan

/// Issue 41, libarchive's loading: from the system's library folders only (never by soname, which the binary's
/// `$ORIGIN` run path would resolve beside the binary first), and never a filter that runs an outside program.
@Suite struct LibArchiveLoaderTests {
    @Test func theSystemLibraryIsNamedByAbsolutePathOnly() {
        let candidates = LibArchive.candidates(environment: nil)
        #expect(!candidates.isEmpty)
        #expect(candidates.allSatisfy { $0.hasPrefix("/") && !$0.contains("$ORIGIN") }, "\(candidates)")
        let folder = Repository.root
        #expect(!candidates.contains { $0.hasPrefix(folder) })
    }

    /// A bare soname is what the dynamic linker would look up along the run path: it is not even tried.
    @Test(arguments: ["libarchive.so.13", "libarchive.so", "./libarchive.so.13"])
    func aNameWithoutAFolderIsNotLoaded(_ name: String) {
        guard case .failure(let unavailable) = LibArchive.load(candidates: [name]) else {
            Issue.record("\(name) was loaded")
            return
        }
        #expect(unavailable.reason.contains("no libarchive"))
    }

    /// An archive compressed with a filter the library would hand to a program is named and refused, before any
    /// reader is opened on it.
    @Test(arguments: LibArchive.Filter.allCases)
    func aCompressionNotBuiltInIsNamed(_ filter: LibArchive.Filter) {
        let start = filter.magic + [0, 0, 0, 0]
        let others = LibArchive.Filter.allCases.filter { $0 != filter }
        #expect(LibArchive.missingFilter(start, builtIn: others) == filter)
        #expect(LibArchive.missingFilter(start, builtIn: LibArchive.Filter.allCases) == nil)
        #expect(LibArchive.missingFilter(Array("ustar".utf8), builtIn: []) == nil, "a plain tar needs no filter")
    }

    @Test(.enabled(if: LibArchiveProbe.enabled, LibArchiveProbe.hint))
    func theSystemsLibraryDecompressesGzipItself() throws {
        let library = try LibArchive.shared.get()
        #expect(library.builtInFilters.contains(.gzip))
    }
}
