import Foundation
import StocktakeBackup
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport
import StocktakeScan

/// Everything one audit needs, resolved from the command line.
package struct AuditRequest: Sendable {
    package var inputPath: String
    package var bundleIdentifier: String?
    package var appBundlePath: String?
    package var appGroupPaths: [String]
    /// With a device backup as the input: the app to audit (`--app`).
    package var backupApp: String?
    /// A device backup whose manifest gives every file's backup state (`--backup`).
    package var backupPath: String?
    /// The backup at `inputPath`, already read: the nightly job audits several apps of one backup and reads its
    /// `Manifest.db` once for all of them.
    package var readBackup: SharedBackup?
    /// An app on a simulator device (`--simulator DEVICE --app ID`): its data container is the input, its
    /// bundle and App Group (and extension) containers the companions, all found in the device set.
    package var simulator: SimulatorTarget?
    /// Set with `simulator`: the device set the containers were found in (read, never written: no output
    /// place inside it), the rule that gave each companion container to the app (by path), and what was
    /// passed over on the way (links not followed), for the report's issues.
    package var deviceSetPath: String?
    package var companionRules: [String: String] = [:]
    package var simulatorNotes: [SetNote] = []
    /// Set by `DeviceAudit`: the device the input was copied from, and the App Group ids of the copied
    /// companions (by path; a copy has no container metadata to name them).
    package var deviceCopy: DeviceCopyDescription?
    package var companionIdentifiers: [String: String] = [:]
    /// Read file contents for credentials and tokens (`--no-content-checks` sets it false; so does the
    /// configuration's `contentChecks: false`).
    package var contentChecks = true
    /// Where the reports go; nil means `Reports/<bundle id>/<UTC timestamp>/` under the current folder.
    package var outputDirectory: String?
    package var formats: [ReportFormat]
    package var scan: ScanOptions
    /// What `stocktake.yml` said (rules, exclusions, budgets, groups); the default when there is none.
    package var configuration: PolicyConfiguration
    package var policy: Policy
    /// Suppress the findings recorded in this baseline.
    package var baseline: Baseline?
    /// Record every finding (before suppression) as a baseline at this path.
    package var writeBaselinePath: String?
    package var tool: ToolInfo
    package var now: Date
    /// The gates the HTML report's verdict states.
    package var gates = AuditGates()
    /// The checked-out repository (GitHub's workspace): a GitHub annotation names a file only when the container
    /// lies inside it and the finding's path is a file there.
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

    /// One app on a simulator device, audited where it is (`--simulator DEVICE --app ID [--device-set DIR]`).
    package init(simulatorApp app: String, on device: String, deviceSet: String?) {
        self.init(
            inputPath: "", simulator: SimulatorTarget(deviceSetPath: deviceSet, device: device, bundleIdentifier: app))
    }
}

/// What an audit produced.
package struct AuditResult: Sendable {
    package let report: Report
    /// Absolute path of the folder holding the reports.
    package let outputDirectory: String
    /// Absolute paths of the files written, in format order.
    package let writtenFiles: [String]
    /// What formats meant for standard output (GitHub annotations) rendered, for the caller to print.
    package let standardOutput: [UInt8]
}

/// Why an audit could not run (exit status 1). The message is for the user.
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

    /// The message, one line each (a simulator refusal lists its candidates): for a printer that escapes each
    /// line on its own.
    package var lines: [String] {
        if case .simulator(let error) = self { return error.lines }
        if case .device(let error) = self { return error.lines }
        return [description]
    }
}

extension AuditRequest {
    /// With `simulator` set: the request with the app's containers as they are in the device set now.
    func resolvingSimulator() throws(AuditError) -> AuditRequest {
        guard let simulator else { return self }
        let found: (device: SimulatorDevice, app: SimulatorApp)
        do {
            found = try simulator.resolve()
        } catch {
            throw .simulator(error)
        }
        var resolved = self
        // `resolve` refuses an app without a data container.
        resolved.inputPath = found.app.dataContainer ?? inputPath
        resolved.appBundlePath = found.app.appBundle
        resolved.appGroupPaths = (found.app.appGroups + found.app.plugins).map(\.path)
        resolved.companionRules = Dictionary(
            (found.app.appGroups + found.app.plugins).map { ($0.path, $0.matchedBy.rawValue) },
            uniquingKeysWith: { first, _ in first })
        resolved.deviceSetPath = String(
            found.device.path[..<(found.device.path.lastIndex(of: "/") ?? found.device.path.endIndex)])
        resolved.simulatorNotes = found.app.notes
        // The live container on this machine's disk, not an export: every extended attribute is there, so
        // a file without the exclusion flag is backed up.
        resolved.scan.xattrsPreserved = true
        return resolved
    }
}
