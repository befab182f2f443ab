import ArgumentParser
import Foundation
import StocktakeHistory

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the nightly history of one app: its runs, sizes and findings, run by run.")

    @Argument(help: "The app's bundle identifier.")
    var bundleIdentifier: String

    @Option(help: "The reports folder the nightly job writes; the history is <folder>/\(HistoryStore.fileName).")
    var reports = "Reports"

    @OptionGroup var shared: HistoryOptions

    @Option(help: "text (a table) or json (sorted keys, integer bytes).")
    var format: AppsCommand.ListingFormat = .text

    @Option(help: "Show the last N runs.")
    var limit = 30

    func validate() throws { try require(limit >= 1, "--limit must be at least 1") }

    func run() throws {
        let series = RunSeries(bundleIdentifier: bundleIdentifier, source: shared.source)
        let (fetched, noRuns) = try attempt {
            let store = try shared.open(fallback: HistoryStore.path(inReports: reports), create: false)
            // One run more than shown: the first row's change is against the run before it.
            let fetched = try store.runs(of: series, limit: limit == Int.max ? limit : limit + 1)
            return (fetched, try fetched.isEmpty ? HistoryTable.noRunsMessage(series, in: store) : "")
        }
        let runs = Array(fetched.suffix(limit))
        guard !runs.isEmpty else { throw CommandFailure(.couldNotRun, noRuns) }
        switch format {
        case .text:
            let before = fetched.count > runs.count ? fetched.first : nil
            print(HistoryTable(bundleIdentifier: bundleIdentifier, runs: runs, before: before).text, terminator: "")
        case .json:
            try HistoryJSONWriter().write(bundleIdentifier: bundleIdentifier, source: shared.source, runs: runs) {
                FileHandle.standardOutput.write(Data($0))
            }
        }
    }
}
