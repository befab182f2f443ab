import CLibArchive

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's libarchive, loaded when the first archive is read and never linked: the package builds, and folders,
/// simulators and backups run, without it. Each call is resolved by name to the shim's type (CI checks the headers).
struct LibArchive: @unchecked Sendable {  // immutable C function pointers
    let readNew: stocktake_archive_read_new
    let readFree: stocktake_archive_read_free
    /// tar (ustar, pax), GNU tar and zip.
    let supportFormats: [stocktake_archive_read_support]
    let supportFilters: [Filter: stocktake_archive_read_support]
    let setOptions: stocktake_archive_read_set_options
    let openFd: stocktake_archive_read_open_fd
    let nextHeader: stocktake_archive_read_next_header
    let readData: stocktake_archive_read_data
    let errorString: stocktake_archive_error_string
    let filterCount: stocktake_archive_filter_count
    let filterName: stocktake_archive_filter_name
    let format: stocktake_archive_format
    let entryFiletype: stocktake_archive_entry_filetype
    let entryHardlink: stocktake_archive_entry_text
    let entryHardlinkUTF8: stocktake_archive_entry_text
    let entryMtime: stocktake_archive_entry_mtime
    let entryPathname: stocktake_archive_entry_text
    let entryPathnameUTF8: stocktake_archive_entry_text
    let entrySize: stocktake_archive_entry_size
    let entrySizeIsSet: stocktake_archive_entry_size_is_set
    let entrySymlink: stocktake_archive_entry_text
    let entrySymlinkUTF8: stocktake_archive_entry_text
    let entryXattrReset: stocktake_archive_entry_xattr_reset
    let entryXattrNext: stocktake_archive_entry_xattr_next

    /// Names the library file to load instead of the system's (tests make the library unloadable with it).
    static let environmentVariable = "STOCKTAKE_LIBARCHIVE"

    static let shared: Result<LibArchive, Unavailable> = load(
        candidates: candidates(environment: getenv(environmentVariable)))

    /// The compressions the reader asks for, each with its magic bytes (to name it when the library cannot read it).
    enum Filter: String, CaseIterable, Sendable {
        case gzip, bzip2, xz

        var magic: [UInt8] {
            switch self {
            case .gzip: [0x1F, 0x8B]
            case .bzip2: Array("BZh".utf8)
            case .xz: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
            }
        }
    }

    /// The filters this library decompresses itself. Without one, libarchive would run a program (`xz -d`) instead:
    /// such a filter is never enabled, and its archives are refused.
    let builtInFilters: [Filter]

    struct Unavailable: Error, Sendable {
        let reason: String

        var remedy: String {
            #if os(macOS)
                "macOS ships it as /usr/lib/libarchive.2.dylib; if \(LibArchive.environmentVariable) is set, unset it"
            #else
                "install the system's libarchive (Debian, Ubuntu: apt-get install libarchive13; Fedora: dnf install libarchive)"
            #endif
        }
    }

    /// The files tried in order: the one the environment names, else the system's, by absolute path. Never by soname:
    /// the binary's `$ORIGIN` run path would let a `libarchive.so.13` beside it load first.
    static func candidates(environment: UnsafePointer<CChar>?) -> [String] {
        if let environment, environment.pointee != 0 { return [String(cString: environment)] }
        #if canImport(Darwin)
            return ["/usr/lib/libarchive.2.dylib"]
        #else
            #if arch(x86_64)
                let triple = "x86_64-linux-gnu"
            #elseif arch(arm64)
                let triple = "aarch64-linux-gnu"
            #else
                let triple = "unknown"
            #endif
            // Debian and Ubuntu (multiarch), then Fedora and openSUSE, then Arch and Alpine.
            let folders = ["/usr/lib/\(triple)", "/lib/\(triple)", "/usr/lib64", "/lib64", "/usr/lib", "/lib"]
            return folders.flatMap { ["\($0)/libarchive.so.13", "\($0)/libarchive.so"] }
        #endif
    }

    static func load(candidates: [String]) -> Result<LibArchive, Unavailable> {
        var reasons: [String] = []
        for file in candidates where file.hasPrefix("/") {
            #if !canImport(Darwin)
                guard access(file, F_OK) == 0 else { continue }
            #endif
            // RTLD_LOCAL: its symbols stay out of the process's namespace; the handle lives as long as the process.
            guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(file) could not be loaded")
                continue
            }
            do {
                return .success(try LibArchive(handle: handle))
            } catch {
                reasons.append("\(file): \(error.reason)")
                dlclose(handle)
            }
        }
        if reasons.isEmpty { reasons.append("no libarchive in the system's library folders (\(candidates[0]), …)") }
        return .failure(Unavailable(reason: reasons.joined(separator: "; ")))
    }

    private init(handle: UnsafeMutableRawPointer) throws(Unavailable) {
        func call<Function>(_ name: String) throws(Unavailable) -> Function {
            guard let symbol = dlsym(handle, name) else { throw Unavailable(reason: "it has no \(name)") }
            return unsafeBitCast(symbol, to: Function.self)
        }
        readNew = try call("archive_read_new")
        readFree = try call("archive_read_free")
        supportFormats = [
            try call("archive_read_support_format_tar"), try call("archive_read_support_format_gnutar"),
            try call("archive_read_support_format_zip"),
        ]
        supportFilters = [
            .gzip: try call("archive_read_support_filter_gzip"), .bzip2: try call("archive_read_support_filter_bzip2"),
            .xz: try call("archive_read_support_filter_xz"),
        ]
        setOptions = try call("archive_read_set_options")
        openFd = try call("archive_read_open_fd")
        nextHeader = try call("archive_read_next_header")
        readData = try call("archive_read_data")
        errorString = try call("archive_error_string")
        filterCount = try call("archive_filter_count")
        filterName = try call("archive_filter_name")
        format = try call("archive_format")
        entryFiletype = try call("archive_entry_filetype")
        entryHardlink = try call("archive_entry_hardlink")
        entryHardlinkUTF8 = try call("archive_entry_hardlink_utf8")
        entryMtime = try call("archive_entry_mtime")
        entryPathname = try call("archive_entry_pathname")
        entryPathnameUTF8 = try call("archive_entry_pathname_utf8")
        entrySize = try call("archive_entry_size")
        entrySizeIsSet = try call("archive_entry_size_is_set")
        entrySymlink = try call("archive_entry_symlink")
        entrySymlinkUTF8 = try call("archive_entry_symlink_utf8")
        entryXattrReset = try call("archive_entry_xattr_reset")
        entryXattrNext = try call("archive_entry_xattr_next")
        // Asked of a scratch reader: registering a filter runs nothing, and the answer is the same for every archive.
        guard let scratch = readNew() else { throw Unavailable(reason: "out of memory") }
        defer { _ = readFree(scratch) }
        let filters = supportFilters
        builtInFilters = Filter.allCases.filter { filters[$0]?(scratch) == ARCHIVE_OK }
    }

    /// Registers the formats and the built-in filters on `archive`; false when the library refused a format.
    func enableReading(_ archive: OpaquePointer) -> Bool {
        let formats = supportFormats.allSatisfy { $0(archive) == ARCHIVE_OK }
        return formats && builtInFilters.allSatisfy { supportFilters[$0]?(archive) == ARCHIVE_OK }
    }

    /// The filter `start` (an archive's first bytes) needs when this library cannot decompress it itself.
    func missingFilter(_ start: [UInt8]) -> Filter? { Self.missingFilter(start, builtIn: builtInFilters) }

    static func missingFilter(_ start: [UInt8], builtIn: [Filter]) -> Filter? {
        Filter.allCases.first { !builtIn.contains($0) && start.starts(with: $0.magic) }
    }
}
