import Foundation
import StocktakeHistory
import StocktakeModel
import StocktakePolicy
import StocktakeRendering
import StocktakeReport

package struct NightlyRequest: Sendable {
    /// The folder the exports land in; nil: only simulator apps.
    package var inboxPath: String?
    /// `REPORTS`: `<bundle id>/<UTC timestamp>/`, `<bundle id>/latest`, the history store, index.html.
    package var reportsPath: String
    /// Runs kept per app; older run folders are deleted (their history rows stay).
    package var keep: Int
    package var configuration: PolicyConfiguration
    package var policy: Policy
    /// The lowest severity that makes an app's run a policy failure, as `stocktake audit --fail-on` (nil: nothing does).
    package var failOn: Severity?
    /// What fails an app's run, as `stocktake audit` decides it: `failOn`, and the configuration's
    /// `contentCoverage: required`.
    package var gates: AuditGates {
        AuditGates(
            failOn: failOn,
            contentCoverage: configuration.contentCoverage == .required ? "contentCoverage: required" : nil)
    }
    package var tool: ToolInfo
    /// The run's timestamp: every app's run folder is named after it.
    package var now: Date
    /// A digest of the configuration: an unchanged export held to another policy is audited again.
    package var policyDigest: String
    /// `--app`: a backup's apps to audit (empty: all), and the apps audited on each simulator.
    package var apps: [String]
    /// `--simulator`: the simulator devices (UDIDs, names or `booted`) in `deviceSet` (nil: Xcode's default set).
    package var simulators: [String]
    package var deviceSet: String?
    /// Opens the history the runs are recorded in (`--history URL`); nil: the SQLite file in the reports folder.
    package var openHistory: (@Sendable () throws(HistoryError) -> any RunHistory)? = nil

    /// Matched, not compared with `!= nil`: comparing an optional typed-throws closure needs the macOS 15 runtime.
    package var usesSharedHistory: Bool { if case .some = openHistory { true } else { false } }
    package var source: String = RunSeries.defaultSource
    /// The machine recording the runs, kept with each (the shared index names it).
    package var recordedBy: String? = nil
    package var metricsFile: String? = nil
    /// The history's file when `--history` names one outside the reports folder (the metrics file never replaces it).
    package var historyFile: String? = nil

    package init(
        inboxPath: String?, reportsPath: String, keep: Int = 30,
        configuration: PolicyConfiguration = PolicyConfiguration(),
        policy: Policy = Policy(), failOn: Severity? = .error, tool: ToolInfo = .current, now: Date = Date(),
        policyDigest: String = "", apps: [String] = [], simulators: [String] = [], deviceSet: String? = nil
    ) {
        (self.simulators, self.deviceSet, self.policyDigest, self.apps) = (simulators, deviceSet, policyDigest, apps)
        (self.configuration, self.reportsPath, self.inboxPath, self.now) = (configuration, reportsPath, inboxPath, now)
        (self.policy, self.failOn, self.keep, self.tool) = (policy, failOn, keep, tool)
    }
}

/// What a nightly run did, for the caller to print (silent on success) and map to an exit status.
package struct NightlyOutcome: Sendable {
    package struct AppRun: Sendable {
        package let input: String
        package let bundleIdentifier: String
        package let runFolder: String
        /// Findings at or above the failing severity, or an exceeded budget.
        package let policyFailure: Bool
        /// Counts of findings and exceeded budgets.
        package let summary: String
        /// The run as recorded (or as it would have been, when the history was not reachable).
        package var recorded: HistoryRun? = nil
    }

    /// An inbox entry left alone: unchanged since it was audited into `run` (`<app>/<run id>`).
    package struct Skipped: Sendable, Equatable {
        package let input: String
        package let run: String
    }

    /// An inbox entry that could not be audited (or whose run could not be stored).
    package struct Failure: Sendable, Equatable {
        package let input: String
        package let message: String
    }

    package let runs: [AppRun]
    package let failures: [Failure]
    /// Exports already audited and unchanged since: not audited again (a quiet night says nothing of them).
    package let skipped: [Skipped]
    /// Problems after the runs (history store, index page, retention): the runs themselves are complete.
    package var problems: [String]
    /// Inbox entries left alone that are not failures (a stray text file): one line each, the exit status unchanged.
    package var notices: [String] = []

    /// 0 all clean, 2 any policy failure, 1 any error (cron conventions; docs/usage.md, "Exit status").
    package var exitStatus: Int32 {
        if !failures.isEmpty || !problems.isEmpty { return 1 }
        return runs.contains(where: \.policyFailure) ? 2 : 0
    }
}

/// Why a nightly run could not start at all.
package enum NightlyError: Error, Sendable, CustomStringConvertible {
    /// Another run holds the lock (exit status 75: try again later).
    case busy(String)
    /// The inbox or the reports folder is unusable (exit status 1).
    case unusable(String)

    package var description: String {
        switch self {
        case .busy(let message), .unusable(let message): message
        }
    }
}
