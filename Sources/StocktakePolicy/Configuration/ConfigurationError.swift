import StocktakeFiles
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

    /// The bytes of the file at `path` (a regular file of at most `maxBytes`); `what` names it in the error.
    static func read(_ path: String, maxBytes: Int64, what: String) throws(ConfigurationError) -> [UInt8] {
        do {
            var options = RegularFile.Options.named(maxBytes: maxBytes)
            return try RegularFile.open(path, options: &options).readAll()
        } catch { throw ConfigurationError(file: path, line: nil, message: "cannot read \(what): \(error)") }
    }
}
