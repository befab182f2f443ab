import Foundation

/// External validators (python3 + jsonschema, xmllint, ncdu). A missing tool skips its test with a
/// message, unless CI (`OutsideTools.required`) makes it a failure.
package enum ExternalTools {
    package static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas")

    package static let hasJSONSchema: Bool = {
        guard OutsideTools.has("python3") else { return false }
        return (try? StocktakeProcess.runCommand(["python3", "-c", "import jsonschema"]).status) == 0
    }()

    /// Writes `bytes` to a fresh temporary file named `name` and returns its path.
    package static func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stocktake-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}
