/// A decoded property-list value. Produced by the bounded readers in StocktakeScan, never by Foundation's
/// plist APIs (they crash on malformed binary plists on Linux).
public indirect enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    /// Seconds since 2001-01-01 00:00:00 UTC, as stored.
    case date(Double)
    case data([UInt8])
    /// An NSKeyedArchiver object reference.
    case uid(UInt64)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    public subscript(key: String) -> PropertyListValue? { dictionaryValue?[key] }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }

    public var boolValue: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value != 0
        case .string(let value): ["yes", "true", "1"].contains(value.lowercased())
        default: nil
        }
    }

    public var integerValue: Int64? { if case .integer(let value) = self { value } else { nil } }

    public var arrayValue: [PropertyListValue]? { if case .array(let values) = self { values } else { nil } }

    public var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let entries) = self { entries } else { nil }
    }
}
