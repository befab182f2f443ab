import Foundation

/// External validators (python3 + jsonschema, xmllint, ncdu). A missing tool skips its test with a
/// message, unless `STOCKTAKE_REQUIRE_TOOLS=1` (CI) makes it a failure.
public enum ExternalTools {
    public static let required = ProcessInfo.processInfo.environment["STOCKTAKE_REQUIRE_TOOLS"] == "1"
    public static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas")

    public static func has(_ command: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(command)") }
    }

    public static let hasJSONSchema: Bool = {
        guard has("python3") else { return false }
        return (try? StocktakeProcess.runCommand(["python3", "-c", "import jsonschema"]).status) == 0
    }()

    /// Writes `bytes` to a fresh temporary file named `name` and returns its path.
    public static func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stocktake-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}
