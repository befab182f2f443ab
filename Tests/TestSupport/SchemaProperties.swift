import Foundation
import Testing

/// The property names a JSON Schema under Reports/ allows for one object, for the tests that hold a key table
/// (`ReportKeys`, `DiffKeys`) to its schema.
package enum SchemaProperties {
    package static func schemaURL(_ name: String) -> URL {
        URL(fileURLWithPath: Repository.path("Reports/\(name)"))
    }

    /// The names of the properties of the object at `path` in the schema `name` (`$defs/x` for a definition).
    /// `closed`: the object must also forbid every other key (`additionalProperties: false`).
    package static func names(in name: String, at path: [String], closed: Bool = true) throws -> [String] {
        var node: Any = try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL(name)))
        for step in path {
            // A number steps into an array (`oneOf`, `items` lists).
            let next = Int(step).flatMap { index in
                (node as? [Any]).flatMap { $0.indices.contains(index) ? $0[index] : nil }
            }
            node = try #require(next ?? (node as? [String: Any])?[step], "no \(step) in \(path) of \(name)")
        }
        let object = node as? [String: Any]
        let properties = try #require(object?["properties"] as? [String: Any], "no properties at \(path) of \(name)")
        if closed { #expect(object?["additionalProperties"] as? Bool == false, "\(name) allows other keys at \(path)") }
        return properties.keys.sorted()
    }

    /// The sorted raw values of a key enum.
    package static func names<Key: RawRepresentable & CaseIterable>(_: Key.Type) -> [String]
    where Key.RawValue == String {
        Key.allCases.map(\.rawValue).sorted()
    }
}
