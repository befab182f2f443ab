/// The tool's identity, printed into every report.
public struct ToolInfo: Sendable, Equatable {
    public let name: String
    public let version: String

    public init(name: String = "stocktake", version: String) { (self.name, self.version) = (name, version) }

    public static let current = ToolInfo(version: "0.1.0")
}
