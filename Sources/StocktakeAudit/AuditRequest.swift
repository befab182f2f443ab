import Foundation
import StocktakeModel
import StocktakePolicy
import StocktakeReport
import StocktakeScan

/// Everything one audit needs, resolved from the command line.
public struct AuditRequest: Sendable {
    public var inputPath: String
    public var bundleIdentifier: String?
    public var appBundlePath: String?
    public var appGroupPaths: [String]
    /// Where the reports go; nil means `Reports/<bundle id>/<UTC timestamp>/` under the current folder.
    public var outputDirectory: String?
    public var formats: [ReportFormat]
    public var scan: ScanOptions
    public var policy: Policy
    public var tool: ToolInfo
    public var now: Date

    public init(
        inputPath: String, bundleIdentifier: String? = nil, appBundlePath: String? = nil, appGroupPaths: [String] = [],
        outputDirectory: String? = nil, formats: [ReportFormat] = [.json, .html], scan: ScanOptions = ScanOptions(),
        policy: Policy = Policy(), tool: ToolInfo = .current, now: Date = Date()
    ) {
        self.inputPath = inputPath
        self.bundleIdentifier = bundleIdentifier
        self.appBundlePath = appBundlePath
        self.appGroupPaths = appGroupPaths
        self.outputDirectory = outputDirectory
        self.formats = formats
        self.scan = scan
        self.policy = policy
        self.tool = tool
        self.now = now
    }
}

/// What an audit produced.
public struct AuditResult: Sendable {
    public let report: Report
    /// Absolute path of the folder holding the reports.
    public let outputDirectory: String
    /// Absolute paths of the files written, in format order.
    public let writtenFiles: [String]
}

/// Why an audit could not run (exit status 1). The message is for the user.
public enum AuditError: Error, Sendable, CustomStringConvertible {
    case input(ScanError)
    case companion(path: String, reason: String)
    case output(String)

    public var description: String {
        switch self {
        case .input(let error): error.description
        case .companion(let path, let reason): "\(path): \(reason)"
        case .output(let message): message
        }
    }
}
