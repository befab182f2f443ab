import StocktakeModel

/// A problem in `stocktake.yml` (exit status 64). Says where, what, and the nearest valid word.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let message: String

    public var description: String { file + (line.map { ":\($0)" } ?? "") + ": " + message }

    /// "unknown key 'rulez'; did you mean 'rules'?"
    static func unknown(_ what: String, _ name: String, valid: [String], file: String, line: Int?) -> ConfigurationError
    {
        let hint =
            EditDistance.closest(to: name, among: valid).map { "; did you mean '\($0)'?" }
            ?? (valid.isEmpty ? "" : "; valid: " + valid.joined(separator: ", "))
        return ConfigurationError(file: file, line: line, message: "unknown \(what) '\(name)'\(hint)")
    }
}
