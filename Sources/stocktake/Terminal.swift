import Foundation
import StocktakeModel

/// Output to the terminal: the report summary on stdout, errors and progress on stderr. Messages quote
/// names from containers and inboxes, which are attacker-controlled: everything printed goes through
/// `visible`, so a name can neither drive the terminal nor start a line of its own (a forged `::error`
/// workflow command, which GitHub Actions reads from stderr as well as stdout).
enum Terminal {
    /// An error, on one line whatever the message holds.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("stocktake: error: \(visible(message))\n".utf8))
    }

    /// An error given as its lines: the first after `stocktake: error:`, the others below it, each made
    /// visible on its own (a line break inside one stays `\x0a` inside it).
    static func error(lines: [String]) {
        let text = lines.map(visible).joined(separator: "\n")
        FileHandle.standardError.write(Data("stocktake: error: \(text)\n".utf8))
    }

    /// A warning: the command goes on. One line.
    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("stocktake: warning: \(visible(message))\n".utf8))
    }

    /// A policy failure (exit 2), as opposed to an error: the run itself succeeded. One line.
    static func failure(_ message: String) {
        FileHandle.standardError.write(Data("stocktake: \(visible(message))\n".utf8))
    }

    /// One line as the terminal shows it (`ConsoleText.visible`).
    static func visible(_ line: String) -> String { ConsoleText.visible(line) }

    /// Says why a command failed, on stderr: errors as errors, a policy failure as one plain line.
    static func report(_ failure: CommandFailure) {
        guard !failure.message.isEmpty else { return }
        // A message keeping its own line breaks (a configuration error quoting the YAML with a caret) is cut at them.
        let lines =
            !failure.lines.isEmpty
            ? failure.lines
            : failure.isMultiline
                ? failure.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                : [failure.message]
        if failure.isError { error(lines: lines) } else { lines.forEach(self.failure) }
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
