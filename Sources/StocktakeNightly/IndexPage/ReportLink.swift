import Foundation
import StocktakeFiles
import StocktakeHistory

/// A link from the index page to a run's report folder, where the page's reader can reach it.
enum ReportLink: Sendable, Equatable {
    /// A path relative to the page, each segment percent-encoded when rendered (`RelativeHref`).
    case relative(String)
    /// An `http(s)` address given when the run was recorded (a CI job's artifacts), checked to be safe in an
    /// attribute (`address(_:)`).
    case address(String)

    /// The file `name` (`report.html`, `diff.html`) of `run`'s report folder, as seen from a page in `pageFolder`:
    /// the recorded address; else, for a run this machine recorded (`thisMachine`; or one recorded before machines
    /// were kept), the recorded folder, or `<pageFolder>/<app>/<run id>`, the nightly job's own layout. Nil when none
    /// holds the file. Another machine's path is never looked up here: farm Macs laid out alike have folders of the
    /// same name and run id, and this machine's would be the wrong report.
    static func to(_ name: String, of run: HistoryRun, fromPageIn pageFolder: String, thisMachine: String?)
        -> ReportLink?
    {
        if let location = run.reportLocation, let base = address(location) {
            // Nothing to check at an address: a CI run has its report, and a diff only when it says so.
            return name == "report.html" ? .address(Paths.join(base, name)) : nil
        }
        guard run.recordedBy == nil || run.recordedBy == thisMachine else { return nil }
        var candidates: [String] = []
        if let location = run.reportLocation, location.hasPrefix("/") { candidates.append(location) }
        candidates.append(Paths.join(pageFolder, run.bundleIdentifier, run.runID))
        for folder in candidates where FileManager.default.fileExists(atPath: Paths.join(folder, name)) {
            return .relative(relativePath(from: pageFolder, to: Paths.join(folder, name)))
        }
        return nil
    }

    /// `text` when it is an address `record` accepts (`ReportAddress`), its trailing `/` dropped.
    static func address(_ text: String) -> String? { ReportAddress.normalized(text) }

    /// `target` relative to `folder`, both made absolute and resolved (links included), so the page works wherever
    /// the two are opened from: `com.example.chat/2026-11-21T020000Z/report.html`, or `../other/…/report.html`.
    static func relativePath(from folder: String, to target: String) -> String {
        let from = components(ResolvedPath.of(folder))
        let to =
            components(ResolvedPath.of((target as NSString).deletingLastPathComponent))
            + [(target as NSString).lastPathComponent]
        var shared = 0
        while shared < min(from.count, to.count - 1) && from[shared] == to[shared] { shared += 1 }
        return (Array(repeating: "..", count: from.count - shared) + to[shared...]).joined(separator: "/")
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }
}
