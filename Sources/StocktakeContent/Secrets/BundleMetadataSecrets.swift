import StocktakeModel

/// The secrets shipped in an app's Info.plist (judged as any plist's), and the plist as reports may show it: a secret
/// value or a key that is itself a token shown by its shape (`<API key, 32 chars>`).
public enum BundleMetadataSecrets {
    public static func find(in info: PropertyListValue) -> [(place: String, kind: SensitiveItem.Kind, length: Int)] {
        PropertyListSecrets.find(in: info).map { ($0.place, $0.kind, $0.length) }
    }

    /// `info` with every secret value replaced by its shape and every token-shaped key by its shape.
    public static func redacted(_ info: PropertyListValue) -> PropertyListValue { redacted(info, path: []) }

    private static func redacted(_ value: PropertyListValue, path: [String]) -> PropertyListValue {
        switch value {
        case .dictionary(let entries):
            var shown: [String: PropertyListValue] = [:]
            // Keys in order, so that two keys of one shape (or a shape equal to a plain key) each keep their entry,
            // numbered the same way every time.
            for (key, element) in entries.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                var name = SecretRandomness.redacted(key)
                var number = 1
                while shown[name] != nil || (name != key && entries[name] != nil) {
                    number += 1
                    name = "\(SecretRandomness.redacted(key)) #\(number)"
                }
                shown[name] = redacted(element, path: path + [key])
            }
            return .dictionary(shown)
        case .array(let elements): return .array(elements.enumerated().map { redacted($1, path: path + ["[\($0)]"]) })
        case .string, .data:
            // Reports show data's bytes (hex, base64): text or a nested plist holding a secret is shown by its shape.
            guard let hit = PropertyListSecrets.find(in: nestedAt(path, value)).first else { return value }
            return .string("<\(hit.kind.shapeName), \(hit.length) chars>")
        default: return value
        }
    }

    /// `value` at `path` of an otherwise empty dictionary, so the reader judges it under its own key name.
    private static func nestedAt(_ path: [String], _ value: PropertyListValue) -> PropertyListValue {
        path.reversed().reduce(value) { inner, key in key.hasPrefix("[") ? .array([inner]) : .dictionary([key: inner]) }
    }
}
