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
    var format: HistoryFormat = .text

    @Option(help: "Show the last N runs.")
    var limit = 30

    func validate() throws { guard limit >= 1 else { throw ValidationError("--limit must be at least 1") } }

    func run() throws {
        let fetched: [HistoryRun]
        let known: [String]
        var otherSources: [String] = []
        let name: String
        do {
            let store = try shared.open(fallback: HistoryStore.path(inReports: reports), create: false)
            name = store.name
            let series = RunSeries(bundleIdentifier: bundleIdentifier, source: shared.source)
            // One run more than shown: the first row's change is against the run before it.
            fetched = try store.runs(of: series, limit: limit == Int.max ? limit : limit + 1)
            if fetched.isEmpty {
                otherSources = try store.series(ofApp: bundleIdentifier).map(\.source)
                known = otherSources.isEmpty ? try store.bundleIdentifiers() : []
            } else {
                known = []
            }
        } catch {
            throw CommandFailure(.couldNotRun, error.description)
        }
        let runs = Array(fetched.suffix(limit))
        guard !runs.isEmpty else {
            if !otherSources.isEmpty {
                let sources = otherSources.map { ConsoleText.visible($0) }.joined(separator: ", ")
                throw CommandFailure(
                    .couldNotRun,
                    "no runs recorded for '\(ConsoleText.visible(bundleIdentifier))' from source '\(shared.source)' in \(name); its runs come from: \(sources) (pass --source)"
                )
            }
            throw CommandFailure(
                .couldNotRun, HistoryTable.noRunsMessage(bundleIdentifier: bundleIdentifier, path: name, known: known))
        }
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

enum HistoryFormat: String, ExpressibleByArgument, CaseIterable { case text, json }
