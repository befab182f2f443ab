import CLibArchive

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's libarchive, loaded when the first archive is read and never linked: the package builds with
/// nothing installed, and folders, simulators and device backups run without it. Each call is resolved by name
/// to the function-pointer type the shim gives it (whose signatures CI holds to libarchive's headers).
struct LibArchive: @unchecked Sendable {  // immutable C function pointers
    let readNew: stocktake_archive_read_new
    let readFree: stocktake_archive_read_free
    let supportFormatTar: stocktake_archive_read_support
    let supportFormatGnutar: stocktake_archive_read_support
    let supportFormatZip: stocktake_archive_read_support
    let supportFilterGzip: stocktake_archive_read_support
    let supportFilterBzip2: stocktake_archive_read_support
    let supportFilterXz: stocktake_archive_read_support
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

    /// The library, loaded once per process; or why it could not be.
    static let shared: Result<LibArchive, Unavailable> = load(
        candidates: candidates(environment: getenv(environmentVariable)))

    /// Why the library could not be loaded, in words a user can act on.
    struct Unavailable: Error, Sendable {
        let reason: String

        /// What to install, by platform.
        var remedy: String {
            #if os(macOS)
                "macOS ships it as /usr/lib/libarchive.2.dylib; if \(LibArchive.environmentVariable) is set, unset it"
            #else
                "install the system's libarchive (Debian, Ubuntu: apt-get install libarchive13; Fedora: dnf install libarchive)"
            #endif
        }
    }

    /// The files tried in order: the one the environment names, else the system's.
    static func candidates(environment: UnsafePointer<CChar>?) -> [String] {
        if let environment, environment.pointee != 0 { return [String(cString: environment)] }
        #if canImport(Darwin)
            return ["/usr/lib/libarchive.2.dylib"]
        #else
            return ["libarchive.so.13", "libarchive.so"]
        #endif
    }

    static func load(candidates: [String]) -> Result<LibArchive, Unavailable> {
        var reasons: [String] = []
        for file in candidates {
            // RTLD_LOCAL: the library's symbols stay out of the process's namespace; the handle lives as long as the process.
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
        return .failure(Unavailable(reason: reasons.joined(separator: "; ")))
    }

    private init(handle: UnsafeMutableRawPointer) throws(Unavailable) {
        func call<Function>(_ name: String) throws(Unavailable) -> Function {
            guard let symbol = dlsym(handle, name) else { throw Unavailable(reason: "it has no \(name)") }
            return unsafeBitCast(symbol, to: Function.self)
        }
        readNew = try call("archive_read_new")
        readFree = try call("archive_read_free")
        supportFormatTar = try call("archive_read_support_format_tar")
        supportFormatGnutar = try call("archive_read_support_format_gnutar")
        supportFormatZip = try call("archive_read_support_format_zip")
        supportFilterGzip = try call("archive_read_support_filter_gzip")
        supportFilterBzip2 = try call("archive_read_support_filter_bzip2")
        supportFilterXz = try call("archive_read_support_filter_xz")
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
    }
}
