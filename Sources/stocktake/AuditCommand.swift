import ArgumentParser
import Foundation
import StocktakeAudit
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport
import StocktakeScan

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Walk a container, classify every file, total sizes and backup state, and write reports.")

    @Argument(
        help:
            "An .xcappdata package, a simulator data container, a folder holding Documents/, Library/, tmp/, a .zip/.tar/.tar.gz/.tgz/.tar.bz2/.tar.xz of one (read in place), or a device backup folder (with --app). Not with --simulator."
    )
    var container: String?

    @Option(help: "Folder for the reports (default: Reports/<bundle id>/<UTC timestamp>/).")
    var output: String?

    static let formatNames = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")

    @Option(help: "Comma-separated report formats: \(AuditCommand.formatNames).")
    var format: String = "json,html"

    @Option(name: .customLong("bundle-id"), help: "The app's bundle identifier, overriding what the container says.")
    var bundleIdentifier: String?

    @Option(help: "The app's .app bundle: adds its size and Info.plist keys.")
    var appBundle: String?

    @Option(
        name: .customLong("app-group"),
        help: "An App Group container of the app (repeatable); with --device, its group id (group.…).")
    var appGroups: [String] = []

    @Option(
        help:
            "With a device backup as the input, or with --simulator or --device: the bundle id of the app to audit (see `stocktake apps`, `stocktake simulators`, `stocktake devices --apps`)."
    )
    var app: String?

    @Option(
        help:
            "Audit --app on this simulator device (a UDID, a device name, or booted): its data container, .app bundle and App Group containers, found in the device set."
    )
    var simulator: String?

    @Option(
        help:
            "Audit --app on this connected device (its name, UDID or identifier; see `stocktake devices`): Xcode's devicectl copies the app's data container, and each --app-group ID's, into a private temporary folder, removed after the audit."
    )
    var device: String?

    @Option(
        help: "With --simulator: the CoreSimulator device set (default: ~/Library/Developer/CoreSimulator/Devices).")
    var deviceSet: String?

    @Option(help: "A device backup of the device the container came from: every file's backup state from its manifest.")
    var backup: String?

    @Flag(help: "Do not read file contents for credentials, tokens and session cookies.")
    var noContentChecks = false

    @Flag(help: "Fail (exit 2) when the content checks leave a file unread (as contentCoverage: required).")
    var requireContentCoverage = false

    @Flag(help: "Vouch that the export kept extended attributes, so unflagged files count as backed up.")
    var xattrsPreserved = false

    @Option(help: "Threads walking the tree.")
    var threads: Int = 4

    @Option(help: "Folders deeper than this are recorded but not listed.")
    var maxDepth: Int = 256

    @Option(help: "Policy configuration (default: stocktake.yml in the current folder, when present).")
    var config: String?

    @Option(help: "Suppress the findings recorded in this baseline file.")
    var baseline: String?

    @Option(help: "Record every current finding in this baseline file.")
    var writeBaseline: String?

    @Option(help: "Exit 2 when a finding is at or above this severity: error, warning or never.")
    var failOn: FailOn = .error

    @Flag(help: "Treat warnings as errors (the same as --fail-on warning).")
    var strict = false

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @Flag(help: "Print the wall time of each phase that ran (identify, walk, content, rules, each report) on stderr.")
    var timings = false

    func validate() throws {
        _ = try formats()
        try require((1...16).contains(threads), "--threads must be between 1 and 16")
        try require(maxDepth >= 1, "--max-depth must be at least 1")
        if device != nil {
            try validateDevice()
        } else if simulator != nil {
            try require(container == nil, "--simulator finds the container itself: give no CONTAINER with it")
            try require(
                app != nil, "--simulator needs --app ID, the bundle id of the app to audit (see `stocktake simulators`)"
            )
            try require(
                appBundle == nil && appGroups.isEmpty && backup == nil,
                "--simulator finds the app's bundle and App Groups itself and has no device backup: drop --app-bundle, --app-group and --backup"
            )
        } else {
            try require(container != nil, "give the CONTAINER to audit, or --simulator DEVICE --app ID")
            try require(deviceSet == nil, "--device-set goes with --simulator")
        }
        try require(
            app == nil || backup == nil || device != nil,
            "--app audits a device backup itself; --backup lays a backup over a container export: give one of them")
    }

    private func validateDevice() throws {
        try require(
            simulator == nil && container == nil && deviceSet == nil,
            "--device copies the container itself: give no CONTAINER, --simulator or --device-set with it")
        try require(
            app?.isEmpty == false,
            "--device needs --app ID, the bundle id of the app to audit (see `stocktake devices --apps DEVICE`)")
        try require(
            appBundle == nil && backup == nil, "--device copies the app's data only: drop --app-bundle and --backup")
        // Ids go to devicectl as arguments (never through a shell) and name folders of the copy: keep them to
        // what bundle and group ids are made of.
        for id in [app ?? ""] + appGroups where !Self.isIdentifier(id) {
            throw ValidationError(
                "'\(id)' is no bundle or group id (letters, digits, hyphens and dots, such as com.example.app or group.com.example)"
            )
        }
    }

    static func isIdentifier(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 255 && !id.hasPrefix(".") && !id.hasPrefix("-") && !id.contains("..")
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "." || $0 == "-")
            }
    }

    func formats() throws -> [ReportFormat] {
        var chosen: [ReportFormat] = []
        for name in format.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let format = ReportFormat(rawValue: name) else {
                throw ValidationError("unknown format '\(name)'; choose from \(Self.formatNames)")
            }
            if !chosen.contains(format) { chosen.append(format) }
        }
        guard !chosen.isEmpty else { throw ValidationError("--format needs at least one format") }
        return chosen
    }

    /// The report's timestamp: now, or `SOURCE_DATE_EPOCH` (the reproducible-builds convention) when set,
    /// so that golden reports and repeated runs can be byte-identical.
    static func reportTime() -> Date {
        let seconds = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap { Int64($0) }
        return seconds.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? Date()
    }

    func run() throws {
        let progress = ScanProgress()
        let phaseTimings = timings ? PhaseTimings() : nil
        let (configuration, policy, baseline) = try PolicySettings.load(config: config, baseline: baseline)
        var request = AuditRequest(
            inputPath: container ?? "", bundleIdentifier: bundleIdentifier, appBundlePath: appBundle,
            appGroupPaths: appGroups, outputDirectory: output, formats: try formats(),
            scan: ScanOptions(
                threads: threads, maxDepth: maxDepth, xattrsPreserved: xattrsPreserved, progress: progress,
                timings: phaseTimings),
            configuration: configuration, policy: policy, baseline: baseline, writeBaselinePath: writeBaseline,
            now: Self.reportTime(), backupApp: simulator == nil && device == nil ? app : nil, backupPath: backup,
            simulator: simulator.map {
                SimulatorTarget(deviceSetPath: deviceSet, device: $0, bundleIdentifier: app ?? "")
            })
        request.contentChecks = !noContentChecks
        // Flag first: the verdict names the setting the user typed.
        let coverageGate =
            requireContentCoverage
            ? "--require-content-coverage"
            : configuration.contentCoverage == .required ? "contentCoverage: required" : nil
        request.gates = AuditGates(failOn: strict ? .warning : failOn.severity, contentCoverage: coverageGate)
        // GitHub's checkout; elsewhere the current folder, where a workflow's steps run.
        request.repositoryRoot =
            ProcessInfo.processInfo.environment["GITHUB_WORKSPACE"] ?? FileManager.default.currentDirectoryPath
        let line = quiet ? nil : ProgressLine.startIfTerminal(progress)
        let result: AuditResult
        do {
            defer { line?.stop() }
            if let device {
                let target = DeviceTarget(device: device, bundleIdentifier: app ?? "", appGroups: appGroups)
                result = try Interruption.withDevicectl(scratch: "stocktake-device", AuditError.device) {
                    control, scratch throws(AuditError) in
                    try DeviceAudit.run(request, target: target, control: control, scratch: scratch)
                }
            } else {
                // Stopped by a signal, it leaves no scratch copies behind (an archive's can reach gigabytes).
                let interruption = Interruption { Audit.removeScratchCopies() }
                defer { interruption.end() }
                result = try Audit.run(request)
            }
        } catch {
            throw CommandFailure(.couldNotRun, lines: error.lines)
        }
        // Even with --quiet: asking for timings is asking for them to be printed.
        if let phaseTimings { FileHandle.standardError.write(Data(phaseTimings.text.utf8)) }
        // The exit status, the summary and report.html all read this one verdict.
        let verdict = ReportVerdict(report: result.report, gates: request.gates, number: HTMLFormatting.grouped)
        if !quiet { print(AuditSummary(result: result, verdict: verdict).text, terminator: "") }
        // Output the user asked for (GitHub annotations): printed even with --quiet, after the summary.
        if !result.standardOutput.isEmpty { FileHandle.standardOutput.write(Data(result.standardOutput)) }
        // Reports are written first: a policy failure still leaves them for the reader.
        // One line on stderr says why, even with --quiet: cron mails exactly that line.
        if verdict.failed == true {
            throw CommandFailure(.policyFailure, "failed: \(verdict.reason) (reports in \(result.outputDirectory))")
        }
    }
}

/// `--fail-on`: the lowest severity that fails the run.
enum FailOn: String, ExpressibleByArgument, CaseIterable {
    case error, warning, never

    /// Nil for `never`.
    var severity: Severity? { Severity(rawValue: rawValue) }
}
