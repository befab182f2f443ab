import Foundation
import StocktakeFiles
import StocktakeHistory

/// A link from the index page to a run's report folder, where the page's reader can reach it.
enum ReportLink: Sendable, Equatable {
    /// A path relative to the page, each segment percent-encoded when rendered (`RelativeHref`).
    case relative(String)
    /// An `http(s)` address given when the run was recorded, checked to be safe in an attribute.
    case address(String)

    /// The recorded address, else for this machine's run its folder or `<pageFolder>/<app>/<run id>`: never another
    /// machine's path, as farm Macs laid out alike have folders of the same name, and this one's is the wrong report.
    static func to(_ name: String, of run: HistoryRun, fromPageIn pageFolder: String, thisMachine: String?)
        -> ReportLink?
    {
        if let location = run.reportLocation, let base = ReportAddress.normalized(location) {
            // Nothing to check at an address: a CI run has its report, and a diff only when it says so.
            return name == "report.html" ? .address(Paths.join(base, name)) : nil
        }
        guard run.recordedBy == nil || run.recordedBy == thisMachine else { return nil }
        let recorded = run.reportLocation.flatMap { $0.hasPrefix("/") ? $0 : nil }
        let candidates = [recorded, Paths.join(pageFolder, run.bundleIdentifier, run.runID)].compactMap { $0 }
        let folder = candidates.first { FileManager.default.fileExists(atPath: Paths.join($0, name)) }
        return folder.map { .relative(relativePath(from: pageFolder, to: Paths.join($0, name))) }
    }

    /// `target` relative to `folder`, both resolved (links included), so the page works wherever the two are opened.
    static func relativePath(from folder: String, to target: String) -> String {
        let components = { (path: String) in path.split(separator: "/").map(String.init) }
        let from = components(ResolvedPath.of(folder))
        let file = target as NSString
        let to = components(ResolvedPath.of(file.deletingLastPathComponent)) + [file.lastPathComponent]
        var shared = 0
        while shared < min(from.count, to.count - 1) && from[shared] == to[shared] { shared += 1 }
        return (Array(repeating: "..", count: from.count - shared) + to[shared...]).joined(separator: "/")
    }
}
