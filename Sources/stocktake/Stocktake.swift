import ArgumentParser
import Foundation

@main struct Stocktake: ParsableCommand {
    /// The one place a command's failure becomes an exit status: commands throw `CommandFailure`.
    static func main() {
        #if os(Linux)
            HugePages.restartWithHugePagesIfUseful()
        #endif
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            Terminal.report(failure)
            Foundation.exit(failure.status.rawValue)
        } catch {
            reportParserError(error)
        }
    }

    /// ArgumentParser's errors (a bad flag or value: exit 64) worded as every other error, `stocktake: error: …`,
    /// then its usage lines. `--help` and `--version` come this way too and print as ArgumentParser prints them.
    private static func reportParserError(_ error: any Error) -> Never {
        let status = exitCode(for: error)
        guard status != .success else { exit(withError: error) }
        let message = message(for: error)
        if !message.isEmpty {
            // What follows the message in ArgumentParser's own text (`Error: MESSAGE`): the usage and where help is.
            let full = fullMessage(for: error)
            let usage = full.range(of: message).map { full[$0.upperBound...].drop { $0.isNewline } } ?? ""
            Terminal.error(
                lines: [message] + usage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        Foundation.exit(status.rawValue)
    }

    static let configuration = CommandConfiguration(
        commandName: "stocktake",
        abstract: "Take inventory of an exported iOS app data container and hold it to Apple's storage rules.",
        discussion: """
            Exit status: 0 ran, 1 could not run (input missing or not a container, a report unreadable, \
            reports not writable), 2 policy failure (a finding, a budget, a diff gate), 64 usage error, \
            75 another nightly run holds the lock.
            """, version: "0.1.0",
        subcommands: [
            AuditCommand.self, AppsCommand.self, DiffCommand.self, NightlyCommand.self, SimulatorsCommand.self,
            DevicesCommand.self, RulesCommand.self, InitCommand.self, HistoryCommand.self, RecordCommand.self,
            IndexCommand.self,
        ], defaultSubcommand: AuditCommand.self)
}
