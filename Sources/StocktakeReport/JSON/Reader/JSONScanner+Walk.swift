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

    /// Reads an array at `path`; `element` gets each index and reads or skips that element.
    mutating func forEachElement(
        at path: String, _ element: (inout JSONScanner, Int) throws(JSONReadFailure) -> Void
    ) throws(JSONReadFailure) {
        do { try beginArray() } catch { throw error.located(at: path) }
        var first = true
        var index = 0
        while try nextElement(first: &first) {
            do { try element(&self, index) } catch { throw error.located(at: KeyPath.element(path, index)) }
            index += 1
        }
    }

    /// A string, or nil for `null`.
    mutating func optionalText() throws(JSONReadFailure) -> String? {
        if try null() { return nil }
        return try text()
    }
}

/// A value the mapping needs, or the failure naming its key path.
func required<Value>(_ value: Value?, _ path: @autoclosure () -> String) throws(JSONReadFailure) -> Value {
    guard let value else { throw JSONReadFailure.missing(path()) }
    return value
}
