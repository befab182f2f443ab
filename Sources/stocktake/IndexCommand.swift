import ArgumentParser
import Foundation
import StocktakeHistory
import StocktakeNightly
import StocktakeRendering

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Write index.html over a history: every app's latest run and trend, whichever machine recorded it.",
        discussion: """
            Links go to each latest report where this page's reader can reach it: the address given to `record \
            --report-url`, or the run folder when it exists on this machine (or a disk it shares). Exit status: \
            0 written, 1 not (the history unreachable or unreadable, the folder not writable), 64 usage error.
            """)

    @OptionGroup var shared: HistoryOptions

    @Option(help: "The folder index.html is written into (created when missing).")
    var output: String

    @Option(help: "Runs shown in each app's trend.")
    var limit = 30

    func validate() throws {
        try require(shared.history != nil, "give --history: a postgresql:// URL, or a history.sqlite file")
        try require(limit >= 1, "--limit must be at least 1")
    }

    func run() throws {
        do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
            throw CommandFailure(.couldNotRun, "cannot create \(output): \(error.localizedDescription)")
        }
        try attempt {
            let history = try shared.open(fallback: "", create: false)
            try IndexBuilder(
                outputPath: output, history: history, trendLength: limit, showsMachines: shared.isServer,
                thisMachine: MachineName.current
            )
            .write(generatedAt: ReportDates.iso8601(Date()))
        }
    }
}
