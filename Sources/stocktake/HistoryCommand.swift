import ArgumentParser
import Foundation
import StocktakeNightly

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the nightly history of one app: its runs, sizes and findings, run by run.")

    @Argument(help: "The app's bundle identifier.")
    var bundleIdentifier: String

    @Option(
        name: .long,
        help: "The reports folder the nightly job writes; the history is <folder>/\(HistoryStore.fileName).")
    var reports = "Reports"

    @Option(name: .long, help: "text (a table) or json (sorted keys, integer bytes).")
    var format: HistoryFormat = .text

    @Option(name: .long, help: "Show the last N runs.")
    var limit = 30

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let path = HistoryStore.path(inReports: reports)
        let fetched: [HistoryRun]
        let known: [String]
        do {
            let store = try HistoryStore(path: path, createIfMissing: false)
            // One run more than shown: the first row's change is against the run before it.
            fetched = try store.runs(bundleIdentifier: bundleIdentifier, limit: limit == Int.max ? limit : limit + 1)
            known = fetched.isEmpty ? try store.bundleIdentifiers() : []
        } catch {
            throw CommandFailure(.couldNotRun, error.description)
        }
        let runs = Array(fetched.suffix(limit))
        guard !runs.isEmpty else {
            throw CommandFailure(
                .couldNotRun, HistoryTable.noRunsMessage(bundleIdentifier: bundleIdentifier, path: path, known: known))
        }
        switch format {
        case .text:
            let before = fetched.count > runs.count ? fetched.first : nil
            print(HistoryTable(bundleIdentifier: bundleIdentifier, runs: runs, before: before).text, terminator: "")
        case .json:
            try HistoryJSONWriter().write(bundleIdentifier: bundleIdentifier, runs: runs) {
                FileHandle.standardOutput.write(Data($0))
            }
        }
    }
}

enum HistoryFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
