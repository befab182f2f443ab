import StocktakeFiles
import StocktakeModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a `report.json` (or a report folder holding one) back into a `ReportSnapshot`, for `stocktake diff`
/// and the history. Built for a million rows: the file is mapped, parsed once by a pull parser and the
/// rows go straight into columns (see `JSONScanner`, `EntryRowsReader`). Keys it does not know are skipped,
/// so reports of later tools with the same schema version still read.
public enum ReportReader {
    public static let schemaVersion = 1
    /// A larger report.json is refused: 4 GiB is about twelve million files, and reading one costs about
    /// 185 bytes of memory per row besides the mapping.
    public static let maxBytes: Int64 = 4 << 30

    /// `path`: a `report.json`, or the folder `stocktake audit` wrote it into.
    public static func read(path: String) throws(ReportReadError) -> ReportSnapshot {
        let file = try reportFile(at: path)
        let bytes: ReportBytes
        do { bytes = try ReportBytes(file: file, maxBytes: maxBytes) } catch {
            throw ReportReadError(
                path: path, reason: file == path ? "cannot read: \(error)" : "cannot read \(file): \(error)")
        }
        return try snapshot(of: bytes, path: path)
    }

    /// Both sides of a diff, read at the same time (each read is independent and mostly parsing, so two
    /// cores halve the wait on million-file reports). The first error, in argument order, is thrown.
    public static func read(old: String, new: String) throws(ReportReadError) -> (
        old: ReportSnapshot, new: ReportSnapshot
    ) {
        let results = SideBySide.values(2) { side in
            Result { () throws(ReportReadError) in try read(path: side == 0 ? old : new) }
        }
        return (try results[0].get(), try results[1].get())
    }

    /// A report already in memory (the fuzz target's way in); `name` stands for its path in errors.
    static func read(bytes: [UInt8], name: String) throws(ReportReadError) -> ReportSnapshot {
        try snapshot(of: ReportBytes(copying: bytes), path: name)
    }

    /// The file itself, or `report.json` inside a folder.
    private static func reportFile(at path: String) throws(ReportReadError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT { throw ReportReadError(path: path, reason: "no such file or folder") }
            throw ReportReadError(path: path, reason: "cannot read: \(SystemError.text(code))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { return path }
        let file = Paths.join(path, "report.json")
        guard stat(file, &status) == 0 else {
            let code = errno
            guard code == ENOENT else {
                throw ReportReadError(path: path, reason: "cannot read report.json: \(SystemError.text(code))")
            }
            throw ReportReadError(
                path: path, reason: "holds no report.json; give a report.json or the folder `stocktake audit` wrote")
        }
        return file
    }

    private static func snapshot(of bytes: borrowing ReportBytes, path: String) throws(ReportReadError)
        -> ReportSnapshot
    {
        guard bytes.count > 0 else { throw ReportReadError(path: path, reason: "is empty, not a report.json") }
        var json = JSONScanner(bytes: bytes.start, count: bytes.count, pages: bytes.pageRelease)
        var document = ReportDocument()
        do { try document.read(&json) } catch {
            // A key that does not fit may mean another JSON file or a later schema: say that instead.
            if !error.isSyntax { try checkIdentity(of: bytes, path: path) }
            throw ReportReadError(path: path, reason: message(error, bytes))
        }
        try checkIdentity(document, path: path)
        do { return try document.snapshot(source: path) } catch {
            throw ReportReadError(path: path, reason: message(error, bytes))
        }
    }

    /// Reads only the top-level `schemaVersion` and `tool`, skipping the rest, after the full read failed.
    private static func checkIdentity(of bytes: borrowing ReportBytes, path: String) throws(ReportReadError) {
        var json = JSONScanner(bytes: bytes.start, count: bytes.count)
        var isObject = true
        var hasVersion = false
        var hasTool = false
        var schemaVersion: Int64?
        do {
            isObject = try json.peek() == .object
            if isObject {
                try json.forEachMember(at: "") { json, key throws(JSONReadFailure) in
                    switch ReportKeys.Document(rawValue: key) {
                    case .schemaVersion?:
                        hasVersion = true
                        if try json.peek() == .number { schemaVersion = try? json.integer() }
                        if schemaVersion == nil { try json.skipValue() }
                    case .tool?:
                        hasTool = try json.peek() == .object
                        try json.skipValue()
                    default: try json.skipValue()
                    }
                }
            } else {
                try json.skipValue()
            }
            try json.expectEnd()
        } catch {
            throw ReportReadError(path: path, reason: message(error, bytes))
        }
        guard isObject else { throw ReportReadError(path: path, reason: notAReport("its top level is not an object")) }
        guard hasVersion, hasTool else {
            throw ReportReadError(path: path, reason: notAReport("it has no `schemaVersion` and `tool`"))
        }
        // A schemaVersion that is not an integer: the full read's message names it.
        if let schemaVersion { try checkVersion(schemaVersion, path: path) }
    }

    private static func checkIdentity(_ document: ReportDocument, path: String) throws(ReportReadError) {
        guard let schemaVersion = document.schemaVersion, document.tool != nil else {
            throw ReportReadError(path: path, reason: notAReport("it has no `schemaVersion` and `tool`"))
        }
        try checkVersion(schemaVersion, path: path)
    }

    private static func checkVersion(_ schemaVersion: Int64, path: String) throws(ReportReadError) {
        guard schemaVersion != Self.schemaVersion else { return }
        let problem =
            schemaVersion > Self.schemaVersion
            ? "is newer than this stocktake reads (\(Self.schemaVersion)); upgrade stocktake"
            : "is not one this stocktake reads (\(Self.schemaVersion))"
        throw ReportReadError(path: path, reason: "schema version \(schemaVersion) \(problem)")
    }

    private static func notAReport(_ why: String) -> String {
        "is JSON but not a Stocktake report (\(why)); give the report.json `stocktake audit` wrote"
    }

    /// The failure in words, with line and column for a place in the bytes.
    private static func message(_ failure: JSONReadFailure, _ bytes: borrowing ReportBytes) -> String {
        switch failure {
        case .syntax(let offset, let problem): return "not valid JSON at \(place(offset, bytes)): \(problem)"
        case .mismatch(let offset, let expected, let found):
            return "not a report this stocktake reads: at \(place(offset, bytes)), expected \(expected), found \(found)"
        case .schema(let path, let problem): return "not a report this stocktake reads: `\(path)`: \(problem)"
        case .missing(let path): return "not a report this stocktake reads: `\(path)` is missing"
        }
    }

    /// `line L, column C` (1-based; the column counts bytes).
    private static func place(_ offset: Int, _ bytes: borrowing ReportBytes) -> String {
        let end = min(offset, bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes.start[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return "line \(line), column \(end - lineStart + 1)"
    }
}

/// Why a report could not be read; `reason` is for the user and says what to do where it can.
public struct ReportReadError: Error, Sendable, CustomStringConvertible {
    /// The path as the user gave it.
    public let path: String
    public let reason: String

    public var description: String { "\(path): \(reason)" }
}
