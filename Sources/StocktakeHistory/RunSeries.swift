/// One app's runs from one source: the unit of a trend, of `stocktake history` and of the metrics' labels.
package struct RunSeries: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The source of runs recorded without `--source`, and of every run recorded before sources were kept.
    package static let defaultSource = "default"

    package let bundleIdentifier: String
    package let source: String

    package init(bundleIdentifier: String, source: String = RunSeries.defaultSource) {
        (self.bundleIdentifier, self.source) = (bundleIdentifier, source)
    }

    package static func < (lhs: RunSeries, rhs: RunSeries) -> Bool {
        (lhs.bundleIdentifier.utf8.lexicographicallyPrecedes(rhs.bundleIdentifier.utf8))
            || (lhs.bundleIdentifier == rhs.bundleIdentifier
                && lhs.source.utf8.lexicographicallyPrecedes(rhs.source.utf8))
    }

    /// `com.example.chat` for the default source, `com.example.chat (farm-ipad)` otherwise.
    package var description: String {
        source == Self.defaultSource ? bundleIdentifier : "\(bundleIdentifier) (\(source))"
    }

    /// A source is a label on every metric and a key of the shared history: short, printable, never a generated id.
    package static func problem(withSourceName name: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= 64 else { return "a source name has 1 to 64 characters" }
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F
        }
        return allowed ? nil : "a source name is letters, digits, '.', '-' and '_' only"
    }
}
