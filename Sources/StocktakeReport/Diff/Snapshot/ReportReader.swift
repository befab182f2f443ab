/// Reads a `report.json` (or a report folder holding one) back into a `ReportSnapshot`.
/// Implementation in progress (see ReportReader+JSON.swift when it lands).
public struct ReportReadError: Error, Sendable, CustomStringConvertible {
    /// The path as the user gave it.
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
