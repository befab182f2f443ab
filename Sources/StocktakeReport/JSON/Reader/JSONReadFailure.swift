/// Why a report's bytes could not be read into a snapshot. Positions are byte offsets; the message for the
/// user turns them into line and column (`ReportReader`).
enum JSONReadFailure: Error {
    /// The bytes are not JSON here: what was expected, and what was found.
    case syntax(offset: Int, problem: String)
    /// A value of the wrong type (or a number that is not a 64-bit integer). The scanner does not know the
    /// key path; the mapping code adds it, turning this into `schema`.
    case mismatch(offset: Int, expected: String, found: String)
    /// Valid JSON that does not fit the report: a key path (`files[12].allocatedBytes`) and the problem.
    case schema(path: String, problem: String)
    /// A key the report must have is not there: its key path.
    case missing(String)

    /// A mismatch placed at its key path; other failures pass unchanged.
    func located(at path: @autoclosure () -> String) -> JSONReadFailure {
        guard case .mismatch(_, let expected, let found) = self else { return self }
        return .schema(path: path(), problem: "expected \(expected), found \(found)")
    }

    /// Syntax and nesting problems mean the bytes are not a JSON document at all.
    var isSyntax: Bool {
        if case .syntax = self { return true }
        return false
    }
}

/// `parent.key` and `parent[index]`, with the top level as "": the places error messages name, built from
/// `ReportKeys` so that a renamed key renames its messages too.
enum KeyPath {
    static func member(_ parent: String, _ key: String) -> String { parent.isEmpty ? key : parent + "." + key }
    static func member<Key: RawRepresentable>(_ parent: String, _ key: Key) -> String where Key.RawValue == String {
        member(parent, key.rawValue)
    }
    static func element(_ parent: String, _ index: Int) -> String { parent + "[\(index)]" }
}
