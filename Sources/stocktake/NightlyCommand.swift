import ArgumentParser
import Foundation
import StocktakeNightly
import StocktakePolicy
import StocktakeScan

struct NightlyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nightly",
        abstract:
            "The cron job: audit every container in INBOX into REPORTS, diff each against its last run, keep history and an index page.",
        discussion: """
            Writes REPORTS/<bundle id>/<UTC timestamp>/ (report.json, .html, .sarif, .junit.xml, summary.md, \
            and diff.json, .html, .md against the previous run), points REPORTS/<bundle id>/latest at it once \
            complete, records the run in REPORTS/history.sqlite (or the --history given) and rebuilds REPORTS/index.html. Entries go \
            oldest export first; one audited before and unchanged since is not audited again. \
            Silent on success. Exit status: 0 all clean, 2 a policy failure, 1 an error (the other containers \
            still run), 64 usage error, 75 another run holds the lock.
            """)

    @Argument(
        help: ArgumentHelp(
            "[INBOX] REPORTS: the folder the exports land in (each entry is one container, or a device backup: one run per app), then the reports folder. INBOX may be left out with --simulator.",
            valueName: "folders"))
    var folders: [String] = []

    @Option(
        help:
            "Also audit --app on this simulator device (a UDID, a device name, or booted) every night, in place (repeatable)."
    )
    var simulator: [String] = []

    @Option(
        help: "With --simulator: the CoreSimulator device set (default: ~/Library/Developer/CoreSimulator/Devices).")
    var deviceSet: String?

    @Option(help: "Runs kept per app; older run folders are deleted.")
    var keep: Int = 30

    @Option(help: "Policy configuration for every app (default: stocktake.yml in the current folder, when present).")
    var config: String?

    @Option(
        help:
            "For device backups in the inbox: audit this app (repeatable; default: every app a backup holds). With --simulator: the apps audited on each device."
    )
    var app: [String] = []

    @Option(help: "A finding at or above this severity is a policy failure: error, warning or never.")
    var failOn: FailOn = .error

    @OptionGroup var shared: HistoryOptions

    @Option(
        help:
            "Also write the apps' latest figures as OpenMetrics text to this file, atomically (for node_exporter's textfile collector: a .prom file in its folder)."
    )
    var metricsFile: String?

    func validate() throws {
        try require(keep >= 1, "--keep must be at least 1")
        if simulator.isEmpty {
            try require(folders.count == 2, "give INBOX and REPORTS (or --simulator DEVICE --app ID and REPORTS)")
            try require(deviceSet == nil, "--device-set goes with --simulator")
        } else {
            try require((1...2).contains(folders.count), "give REPORTS, or INBOX and REPORTS")
            try require(!app.isEmpty, "--simulator needs --app ID, the bundle id of each app to audit there")
        }
    }

    func run() throws {
        let (configuration, policy, _) = try PolicySettings.load(config: config)
        var request = NightlyRequest(
            inboxPath: folders.count == 2 ? folders[0] : nil, reportsPath: folders[folders.count - 1], keep: keep,
            configuration: configuration, policy: policy, failOn: failOn.severity, now: AuditCommand.reportTime(),
            policyDigest: PolicySettings.digest(config: config), apps: app, simulators: simulator, deviceSet: deviceSet)
        request.openHistory = shared.opener
        request.source = shared.source
        request.recordedBy = MachineName.current
        request.metricsFile = metricsFile
        request.historyFile = shared.isServer ? nil : shared.history
        let outcome: NightlyOutcome
        do { outcome = try NightlyJob.run(request) } catch .busy(let message) {
            throw CommandFailure(.locked, message)
        } catch {
            throw CommandFailure(.couldNotRun, error.description)
        }
        // Cron mails whatever is printed: nothing on success, one line per policy failure or error.
        for run in outcome.runs where run.policyFailure {
            let line = "\(run.bundleIdentifier): policy failure: \(run.summary) (\(run.runFolder)/report.html)"
            print(Terminal.visible(line))
        }
        for notice in outcome.notices { Terminal.warning(notice) }
        for failure in outcome.failures { Terminal.error("\(failure.input): \(failure.message)") }
        for problem in outcome.problems { Terminal.error(problem) }
        // Each app's line was printed above: the failure itself says nothing more.
        if let status = CommandFailure.Status(rawValue: outcome.exitStatus) { throw CommandFailure(status, "") }
    }
}
