import Foundation
import StocktakeAudit
import StocktakeFiles
import StocktakeReport

/// `REPORTS`: `<app>/<run id>/`, `<app>/latest`, and `.partial-…` folders renamed into place once complete, so a run
/// killed half-way leaves nothing a reader could mistake for a report.
struct ReportsFolder {
    static let partialPrefix = ".partial-"
    static let latestName = "latest"
    let path: String

    func appFolder(_ app: String) -> String { Paths.join(path, app) }

    func apps() -> [String] { Self.names(in: path).filter { !$0.hasPrefix(".") }.sorted() }

    /// Removes what killed runs left: under the lock, whatever is found is a dead run's. Returns what stays.
    func removePartials() -> [String] {
        for app in apps() {
            for name in Self.names(in: appFolder(app)) where name.hasPrefix(".\(Self.latestName)-") {
                let link = Paths.join(appFolder(app), name)
                if Self.fileType(link) == S_IFLNK { unlink(link) }
            }
        }
        return Self.names(in: path).filter { $0.hasPrefix(Self.partialPrefix) }.compactMap {
            Self.remove(Paths.join(path, $0), else: "cannot remove the unfinished run folder")
        }
    }

    func makePartial(runID: String, index: Int) throws -> String {
        let folder = Paths.join(path, "\(Self.partialPrefix)\(runID)-\(index)-\(getpid())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        return folder
    }

    /// Only folders named like run ids, oldest first: nothing else kept beside them is taken for a run or pruned.
    func runIDs(_ app: String) -> [String] {
        let runs = Self.names(in: appFolder(app)).compactMap { name -> (name: String, order: (String, Int))? in
            guard let order = Self.runOrder(name), Self.fileType(Paths.join(appFolder(app), name)) == S_IFDIR else {
                return nil
            }
            return (name, order)
        }
        return runs.sorted { $0.order < $1.order }.map(\.name)
    }

    /// A run id's place in time: `2026-11-21T020000Z` is attempt 1, `…-2` attempt 2, so that `-10` sorts after `-9`.
    static func runOrder(_ name: String) -> (String, Int)? {
        let shape = Array("0000-00-00T000000Z".utf8)
        let bytes = Array(name.utf8)
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard bytes.count >= shape.count,
            zip(bytes, shape).allSatisfy({ $1 == UInt8(ascii: "0") ? isDigit($0) : $0 == $1 })
        else { return nil }
        let timestamp = String(decoding: bytes[..<shape.count], as: UTF8.self)
        let suffix = bytes[shape.count...]
        if suffix.isEmpty { return (timestamp, 1) }
        let digits = suffix.dropFirst()
        guard suffix.first == UInt8(ascii: "-"), (1...9).contains(digits.count), digits.allSatisfy(isDigit),
            let attempt = Int(String(decoding: digits, as: UTF8.self)), attempt >= 2
        else { return nil }
        return (timestamp, attempt)
    }

    /// The run `latest` points at, when it is a plain name of an existing run.
    func latestRunID(_ app: String) -> String? {
        guard
            let target = try? FileManager.default.destinationOfSymbolicLink(
                atPath: Paths.join(appFolder(app), Self.latestName)),
            !target.contains("/"), !target.hasPrefix("."), runIDs(app).contains(target)
        else { return nil }
        return target
    }

    /// `<run id>`, or `<run id>-N` past the highest N taken: reusing a name retention freed would sort the run before
    /// those it follows and repeat a run id the history holds.
    func nextRunName(_ app: String, runID: String) -> String {
        var attempt = (runIDs(app).compactMap(Self.runOrder).filter { $0.0 == runID }.map(\.1).max() ?? 0) + 1
        var name: String { attempt == 1 ? runID : "\(runID)-\(attempt)" }
        while FileManager.default.fileExists(atPath: Paths.join(appFolder(app), name)) { attempt += 1 }
        return name
    }

    func publish(_ partial: String, app: String, name: String) throws {
        try FileManager.default.createDirectory(atPath: appFolder(app), withIntermediateDirectories: true)
        guard rename(partial, Paths.join(appFolder(app), name)) == 0 else {
            throw posixError("cannot move the run into \(Paths.join(appFolder(app), name))")
        }
    }

    /// Points `<app>/latest` at a run: a new symlink renamed over the old one, so readers see one or the other.
    func pointLatest(_ app: String, at runID: String) throws {
        let temporary = Paths.join(appFolder(app), ".\(Self.latestName)-\(getpid())")
        unlink(temporary)
        guard symlink(runID, temporary) == 0 else { throw posixError("cannot create \(temporary)") }
        guard rename(temporary, Paths.join(appFolder(app), Self.latestName)) == 0 else {
            let error = posixError("cannot point \(Paths.join(appFolder(app), Self.latestName)) at \(runID)")
            unlink(temporary)
            throw error
        }
    }

    /// Deletes the oldest runs beyond `keep`, never the one `latest` points at; returns what could not be deleted.
    func prune(_ app: String, keep: Int) -> [String] {
        let latest = latestRunID(app)
        let runs = runIDs(app).filter { $0 != latest }
        let excess = runs.count + (latest == nil ? 0 : 1) - keep
        guard excess > 0 else { return [] }
        return runs.prefix(excess).compactMap {
            Self.remove(Paths.join(appFolder(app), $0), else: "cannot delete the old run")
        }
    }

    /// Removes `path`; else says why, after `failure` and the path.
    private static func remove(_ path: String, else failure: String) -> String? {
        do {
            try FileManager.default.removeItem(atPath: path)
            return nil
        } catch {
            return "\(failure) \(path): \(FileSystemReason.of(error))"
        }
    }

    private static func names(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    /// The file type bits of `path` itself (a link is not followed), nil when there is nothing.
    private static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    private func posixError(_ message: String) -> NSError {
        let code = errno
        return NSError(
            domain: NSPOSIXErrorDomain, code: Int(code),
            userInfo: [NSLocalizedDescriptionKey: "\(message): \(SystemError.text(code))"])
    }
}
