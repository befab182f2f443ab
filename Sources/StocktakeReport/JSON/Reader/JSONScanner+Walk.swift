import StocktakeModel

/// Walking the small parts of a report (totals, findings, groups): keys as text, and a value of the
/// wrong type reported at its key path. The large arrays (`files`, `directories`) have their own loop.
extension JSONScanner {
    /// Reads an object at `path`; `member` gets each key and reads or skips its value.
    mutating func forEachMember(
        at path: String, _ member: (inout JSONScanner, String) throws(JSONReadFailure) -> Void
    ) throws(JSONReadFailure) {
        do { try beginObject() } catch { throw error.located(at: path) }
        var first = true
        while let key = try nextKey(first: &first) {
            let name = String(decoding: key, as: UTF8.self)
            do { try member(&self, name) } catch { throw error.located(at: KeyPath.member(path, name)) }
        }
    }

    /// Reads an array at `path`; `element` reads each element, given its path.
    mutating func mapElements<Element>(
        at path: String, _ element: (inout JSONScanner, String) throws(JSONReadFailure) -> Element
    ) throws(JSONReadFailure) -> [Element] {
        do { try beginArray() } catch { throw error.located(at: path) }
        var elements: [Element] = []
        var first = true
        while try nextElement(first: &first) {
            let place = KeyPath.element(path, elements.count)
            do { elements.append(try element(&self, place)) } catch { throw error.located(at: place) }
        }
        return elements
    }

    /// A string, or nil for `null`.
    mutating func optionalText() throws(JSONReadFailure) -> String? {
        if try null() { return nil }
        return try text()
    }
}

/// The members of one small object, each read as the kind its key is given (other keys are skipped); a
/// required one that is not there is named by its key path.
struct Members<Key: RawRepresentable & Hashable> where Key.RawValue == String {
    enum Kind { case text, nullableText, size, nullableSize, bool, severity }
    private enum Value {
        case text(String?)
        case size(Int64?)
        case bool(Bool)
        case severity(Severity)
    }
    private let path: String
    private var values: [Key: Value] = [:]

    /// `other` reads or skips the value of each key `kinds` does not name.
    init(
        _ json: inout JSONScanner, at path: String, _ kinds: [Key: Kind],
        other: (inout JSONScanner, String) throws(JSONReadFailure) -> Void = { json, _ in try json.skipValue() }
    ) throws(JSONReadFailure) {
        self.path = path
        var values: [Key: Value] = [:]
        try json.forEachMember(at: path) { json, name throws(JSONReadFailure) in
            guard let key = Key(rawValue: name), let kind = kinds[key] else { return try other(&json, name) }
            let place = KeyPath.member(path, name)
            switch kind {
            case .text: values[key] = .text(try json.text())
            case .nullableText: values[key] = .text(try json.optionalText())
            case .size: values[key] = .size(try json.size(at: place))
            case .nullableSize: values[key] = .size(try json.null() ? nil : try json.size(at: place))
            case .bool: values[key] = .bool(try json.bool())
            case .severity:
                let name = try json.text()
                guard let severity = Severity(rawValue: name) else {
                    throw .schema(
                        path: place, problem: "\(VisibleText.quoted(name)) is not a severity (error, warning, note)")
                }
                values[key] = .severity(severity)
            }
        }
        self.values = values
    }

    func text(_ key: Key) throws(JSONReadFailure) -> String {
        guard case .text(let text?) = values[key] else { throw missing(key) }
        return text
    }

    /// Present, but perhaps `null`.
    func nullableText(_ key: Key) throws(JSONReadFailure) -> String? {
        guard case .text(let text) = values[key] else { throw missing(key) }
        return text
    }

    func size(_ key: Key) throws(JSONReadFailure) -> Int64 {
        guard case .size(let size?) = values[key] else { throw missing(key) }
        return size
    }

    func bool(_ key: Key) throws(JSONReadFailure) -> Bool {
        guard case .bool(let flag) = values[key] else { throw missing(key) }
        return flag
    }

    func severity(_ key: Key) throws(JSONReadFailure) -> Severity {
        guard case .severity(let severity) = values[key] else { throw missing(key) }
        return severity
    }

    /// Members that may be left out (or `null`).
    func optionalText(_ key: Key) -> String? { if case .text(let text) = values[key] { text } else { nil } }

    func optionalSize(_ key: Key) -> Int64? { if case .size(let size) = values[key] { size } else { nil } }

    private func missing(_ key: Key) -> JSONReadFailure { .missing(KeyPath.member(path, key)) }
}

/// A value the mapping needs, or the failure naming its key path.
func required<Value>(_ value: Value?, _ path: @autoclosure () -> String) throws(JSONReadFailure) -> Value {
    guard let value else { throw JSONReadFailure.missing(path()) }
    return value
}
