import Foundation

/// Output to the terminal: the report summary on stdout, errors and progress on stderr.
enum Terminal {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("stocktake: error: \(message)\n".utf8))
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
