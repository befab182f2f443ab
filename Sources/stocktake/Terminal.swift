import Foundation

/// Output to the terminal: the report summary on stdout, errors and progress on stderr.
enum Terminal {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("stocktake: error: \(message)\n".utf8))
    }

    /// A policy failure (exit 2), as opposed to an error: the run itself succeeded.
    static func failure(_ message: String) {
        FileHandle.standardError.write(Data("stocktake: \(message)\n".utf8))
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
