import Foundation
import StocktakeAudit
import StocktakeFiles
import StocktakeReport

/// The layout of `REPORTS`: `<app>/<run id>/` per run, `<app>/latest` → the newest complete run, and
/// `.partial-…` folders that a run writes into and renames into place only once complete, so a run
/// killed half-way leaves nothing a reader could mistake for a report.
struct ReportsFolder {
    static let partialPrefix = ".partial-"
    static let latestName = "latest"
    let path: String

    func appFolder(_ app: String) -> String { Paths.join(path, app) }

    /// The app folders, sorted (hidden working files left out).
    func apps() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Removes what killed runs left behind: unfinished run folders, and the `.latest-<pid>` links a run
    /// renames over `latest`. Called under the nightly lock, which no other run holds: whatever is found is
    /// a dead run's, however recent. Returns what could not be removed.
    func removePartials() -> [String] {
        for app in apps() {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: appFolder(app))) ?? []
            where name.hasPrefix(".\(Self.latestName)-") {
                var info = stat()
                if lstat(Paths.join(appFolder(app), name), &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                    unlink(Paths.join(appFolder(app), name))
                }
            }
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasPrefix(Self.partialPrefix) }.compactMap { name in
            do {
                try FileManager.default.removeItem(atPath: Paths.join(path, name))
                return nil
            } catch {
                return
                    "cannot remove the unfinished run folder \(Paths.join(path, name)): \(FileSystemReason.of(error))"
            }
        }
    }

    /// A fresh, empty folder for one run to write into.
    func makePartial(runID: String, index: Int) throws -> String {
        let folder = Paths.join(path, "\(Self.partialPrefix)\(runID)-\(index)-\(getpid())")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        return folder
    }

    /// The app's complete runs, oldest first: only folders named like run ids, so that nothing else kept
    /// beside them is taken for the previous run or pruned.
    func runIDs(_ app: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: appFolder(app))) ?? []
        let runs = names.compactMap { name -> (name: String, order: (String, Int))? in
            guard let order = Self.runOrder(name) else { return nil }
            var info = stat()
            guard lstat(Paths.join(appFolder(app), name), &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                return nil
            }
            return (name, order)
        }
        return runs.sorted { $0.order < $1.order }.map(\.name)
    }

    /// A run id's place in time: `2026-11-21T020000Z` (a UTC timestamp) is attempt 1, `2026-11-21T020000Z-2`
    /// (`nextRunName` found the name taken) attempt 2, so that `-10` sorts after `-9`. Nil for any other name.
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

    /// The name the app's next run gets: `<run id>`, or `<run id>-N` past the highest N taken. Not the first
    /// free name: retention may have freed an earlier one, and reusing it would sort the run before those it
    /// follows and repeat a run id the history store already holds. Stable while the lock is held.
    func nextRunName(_ app: String, runID: String) -> String {
        var attempt = (runIDs(app).compactMap(Self.runOrder).filter { $0.0 == runID }.map(\.1).max() ?? 0) + 1
        var name: String { attempt == 1 ? runID : "\(runID)-\(attempt)" }
        while FileManager.default.fileExists(atPath: Paths.join(appFolder(app), name)) { attempt += 1 }
        return name
    }

    /// Renames a complete partial folder to `<app>/<name>` (see `nextRunName`).
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
        return runs.prefix(excess).compactMap { run in
            do {
                try FileManager.default.removeItem(atPath: Paths.join(appFolder(app), run))
                return nil
            } catch {
                return "cannot delete the old run \(Paths.join(appFolder(app), run)): \(FileSystemReason.of(error))"
            }
        }
    }

    private func posixError(_ message: String) -> NSError {
        let code = errno
        return NSError(
            domain: NSPOSIXErrorDomain, code: Int(code),
            userInfo: [NSLocalizedDescriptionKey: "\(message): \(SystemError.text(code))"])
    }
}
