import Foundation
import StocktakeModel

/// Output to the terminal: the report summary on stdout, errors and progress on stderr. Names from containers,
/// inboxes and reports are attacker-controlled: everything printed goes through `visible`, so a name can neither
/// drive the terminal (ESC, BEL, CR) nor start a line of its own (a forged `::error` workflow command, which GitHub
/// Actions reads from stdout and stderr alike).
enum Terminal {
    /// One line as the terminal shows it (`VisibleText`'s terminal style: `\x1b`, `\u{202e}`).
    static func visible(_ line: String) -> String { VisibleText.render(line, as: .terminal) }

    /// An error, on one line whatever the message holds.
    static func error(_ message: String) { error(lines: [message]) }

    /// An error given as its lines: the first after `stocktake: error:`, the others below it, each made
    /// visible on its own (a line break inside one stays `\x0a` inside it).
    static func error(lines: [String]) { write("stocktake: error: " + lines.map(visible).joined(separator: "\n")) }

    /// A warning: the command goes on. One line.
    static func warning(_ message: String) { write("stocktake: warning: " + visible(message)) }

    private static func write(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

    /// Says why a command failed, on stderr: errors as errors, a policy failure as one plain line.
    static func report(_ failure: CommandFailure) {
        guard !failure.message.isEmpty else { return }
        guard !failure.isError else { return error(lines: failure.lines) }
        // A policy failure (exit 2) is no error: the run itself succeeded. One line each.
        for line in failure.lines { write("stocktake: " + visible(line)) }
    }
}
