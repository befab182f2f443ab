import Foundation
import StocktakeBackup
import StocktakeFiles
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport
import StocktakeScan

package struct AuditRequest: Sendable {
    package var inputPath: String
    package var bundleIdentifier: String?
    package var appBundlePath: String?
    package var appGroupPaths: [String]
    /// `--app`, with a device backup as the input.
    package var backupApp: String?
    /// `--backup`: a device backup whose manifest gives every file's backup state.
    package var backupPath: String?
    /// The backup at `inputPath`, already read: the nightly job reads one backup once for all its apps.
    package var readBackup: SharedBackup?
    /// An app on a simulator device (`--simulator DEVICE --app ID`), its containers found in the device set.
    package var simulator: SimulatorTarget?
    /// Set with `simulator`: the device set (never written), the rule that gave each companion to the app (by path),
    /// and what was passed over (links not followed).
    package var deviceSetPath: String?
    package var companionRules: [String: String] = [:]
    package var simulatorNotes: [SetNote] = []
    /// Set by `DeviceAudit`: the device, and the copied companions' group ids (a copy has no metadata to name them).
    package var deviceCopy: DeviceCopyDescription?
    package var companionIdentifiers: [String: String] = [:]
    /// Read file contents for credentials and tokens (`--no-content-checks` turns it off).
    package var contentChecks = true
    /// Nil: `Reports/<bundle id>/<UTC timestamp>/`.
    package var outputDirectory: String?
    package var formats: [ReportFormat]
    package var scan: ScanOptions
    package var configuration: PolicyConfiguration
    package var policy: Policy
    package var baseline: Baseline?
    /// Where to record every finding (before suppression) as a baseline.
    package var writeBaselinePath: String?
    package var tool: ToolInfo
    package var now: Date
    package var gates = AuditGates()
    /// GitHub's workspace: an annotation names a file only when the finding's path is a file there.
    package var repositoryRoot: String?

    package init(
        inputPath: String, bundleIdentifier: String? = nil, appBundlePath: String? = nil, appGroupPaths: [String] = [],
        outputDirectory: String? = nil, formats: [ReportFormat] = [.json, .html], scan: ScanOptions = ScanOptions(),
        configuration: PolicyConfiguration = PolicyConfiguration(), policy: Policy = Policy(),
        baseline: Baseline? = nil,
        writeBaselinePath: String? = nil, tool: ToolInfo = .current, now: Date = Date(), backupApp: String? = nil,
        backupPath: String? = nil, simulator: SimulatorTarget? = nil
    ) {
        self.simulator = simulator
        self.backupApp = backupApp
        self.backupPath = backupPath
        self.inputPath = inputPath
        self.bundleIdentifier = bundleIdentifier
        self.appBundlePath = appBundlePath
        self.appGroupPaths = appGroupPaths
        self.outputDirectory = outputDirectory
        self.formats = formats
        self.scan = scan
        self.configuration = configuration
        self.policy = policy
        self.baseline = baseline
        self.writeBaselinePath = writeBaselinePath
        self.tool = tool
        self.now = now
    }

    package init(simulatorApp app: String, on device: String, deviceSet: String?) {
        self.init(
            inputPath: "", simulator: SimulatorTarget(deviceSetPath: deviceSet, device: device, bundleIdentifier: app))
    }
}

package struct AuditResult: Sendable {
    package let report: Report
    package let outputDirectory: String
    /// In format order.
    package let writtenFiles: [String]
    /// What formats meant for standard output (GitHub annotations) rendered, for the caller to print.
    package let standardOutput: [UInt8]
}

/// Why an audit could not run (exit status 1).
package enum AuditError: Error, Sendable, CustomStringConvertible {
    case input(ScanError)
    case companion(path: String, reason: String)
    case output(String)
    case backup(BackupError)
    case simulator(SimulatorError)
    case device(DeviceError)

    package var description: String {
        switch self {
        case .input(let error): error.description
        case .backup(let error): error.description
        case .simulator(let error): error.description
        case .device(let error): error.description
        case .companion(let path, let reason): "\(path): \(reason)"
        case .output(let message): message
        }
    }

    /// The message line by line (a simulator refusal lists its candidates), for a printer that escapes each line.
    package var lines: [String] {
        if case .simulator(let error) = self { return error.lines }
        if case .device(let error) = self { return error.lines }
        return [description]
    }
}

extension AuditRequest {
    /// The app's containers as they are in the device set now.
    func resolvingSimulator() throws(AuditError) -> AuditRequest {
        guard let simulator else { return self }
        let found: (device: SimulatorDevice, app: SimulatorApp)
        do {
            found = try simulator.resolve()
        } catch {
            throw .simulator(error)
        }
        var resolved = self
        resolved.inputPath = found.app.dataContainer ?? inputPath
        resolved.appBundlePath = found.app.appBundle
        resolved.appGroupPaths = (found.app.appGroups + found.app.plugins).map(\.path)
        resolved.companionRules = Dictionary(
            (found.app.appGroups + found.app.plugins).map { ($0.path, $0.matchedBy.rawValue) },
            uniquingKeysWith: { first, _ in first })
        resolved.deviceSetPath = Paths.parent(of: found.device.path)
        resolved.simulatorNotes = found.app.notes
        // The live container, not an export: every extended attribute is there.
        resolved.scan.xattrsPreserved = true
        return resolved
    }
}
