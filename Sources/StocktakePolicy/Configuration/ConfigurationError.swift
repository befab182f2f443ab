/// A problem in `stocktake.yml` (exit status 64). Says where, what, and the nearest valid word.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { file + (line.map { ":\($0)" } ?? "") + ": " + message }

    /// "unknown key 'rulez'; did you mean 'rules'?"
    static func unknown(_ what: String, _ name: String, valid: [String], file: String, line: Int?) -> ConfigurationError {
        let hint = EditDistance.closest(to: name, among: valid).map { "; did you mean '\($0)'?" }
            ?? (valid.isEmpty ? "" : "; valid: " + valid.joined(separator: ", "))
        return ConfigurationError(file: file, line: line, message: "unknown \(what) '\(name)'\(hint)")
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
public enum EditDistance {
    /// The candidate nearest to `name`, when it is near enough to be a plausible typo.
    public static func closest(to name: String, among candidates: [String]) -> String? {
        guard let nearest = candidates.min(by: { between($0, name) < between($1, name) }) else { return nil }
        return between(nearest, name) <= max(2, name.count / 2) ? nearest : nil
    }

    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
