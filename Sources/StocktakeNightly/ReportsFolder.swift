import Foundation
import StocktakeReport

/// The layout of `REPORTS`: `<app>/<run id>/` per run, `<app>/latest` → the newest complete run, and
/// `.partial-…` folders that a run writes into and renames into place only once complete, so a run
/// killed half-way leaves nothing a reader could mistake for a report.
struct ReportsFolder {
    static let partialPrefix = ".partial-"
    static let latestName = "latest"
    let path: String

    func appFolder(_ app: String) -> String { path + "/" + app }

    /// Removes what killed runs left behind; returns what could not be removed.
    func removePartials() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasPrefix(Self.partialPrefix) }.compactMap { name in
            do {
                try FileManager.default.removeItem(atPath: path + "/" + name)
                return nil
            } catch {
                return "cannot remove the unfinished run folder \(path)/\(name): \(error.localizedDescription)"
            }
        }
    }

    /// A fresh, empty folder for one run to write into.
    func makePartial(runID: String, index: Int) throws -> String {
        let folder = "\(path)/\(Self.partialPrefix)\(runID)-\(index)-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        return folder
    }

    /// The app's complete runs, oldest first (run ids are UTC timestamps, so name order is time order).
    func runIDs(_ app: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: appFolder(app))) ?? []
        return names.filter { name in
            guard !name.hasPrefix("."), name != Self.latestName else { return false }
            var info = stat()
            return lstat(appFolder(app) + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }.sorted()
    }

    /// The run `latest` points at, when it is a plain name of an existing run.
    func latestRunID(_ app: String) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: appFolder(app) + "/" + Self.latestName),
              !target.contains("/"), !target.hasPrefix("."), runIDs(app).contains(target) else { return nil }
        return target
    }

    /// Renames a complete partial folder to `<app>/<run id>` (`<run id>-2`, … when taken); returns the name.
    func publish(_ partial: String, app: String, runID: String) throws -> String {
        try FileManager.default.createDirectory(atPath: appFolder(app), withIntermediateDirectories: true)
        var name = runID, attempt = 1
        while FileManager.default.fileExists(atPath: appFolder(app) + "/" + name) || name == Self.latestName {
            attempt += 1
            name = "\(runID)-\(attempt)"
        }
        guard rename(partial, appFolder(app) + "/" + name) == 0 else { throw posixError("cannot move the run into \(appFolder(app))/\(name)") }
        return name
    }

    /// Points `<app>/latest` at a run: a new symlink renamed over the old one, so readers see one or the other.
    func pointLatest(_ app: String, at runID: String) throws {
        let temporary = "\(appFolder(app))/.\(Self.latestName)-\(getpid())"
        unlink(temporary)
        guard symlink(runID, temporary) == 0 else { throw posixError("cannot create \(temporary)") }
        guard rename(temporary, appFolder(app) + "/" + Self.latestName) == 0 else {
            let error = posixError("cannot point \(appFolder(app))/\(Self.latestName) at \(runID)")
            unlink(temporary)
            throw error
        }
    }

    /// Deletes the oldest runs beyond `keep`, never the one `latest` points at; returns the deleted run ids.
    func prune(_ app: String, keep: Int) throws -> [String] {
        let latest = latestRunID(app)
        let runs = runIDs(app).filter { $0 != latest }
        let excess = runs.count + (latest == nil ? 0 : 1) - keep
        guard excess > 0 else { return [] }
        let doomed = Array(runs.prefix(excess))
        for run in doomed { try FileManager.default.removeItem(atPath: appFolder(app) + "/" + run) }
        return doomed
    }

    private func posixError(_ message: String) -> NSError {
        let code = errno
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [NSLocalizedDescriptionKey: "\(message): \(String(cString: strerror(code)))"])
    }
}
